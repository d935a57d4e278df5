package text

import (
	_ "embed"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"

	"github.com/focuscrawl/focuscrawl/internal/text/dictfile"
)

//go:generate go run ./gen -o data

// zhDict is gse's full zh dictionary (587,207 words) in dictfile form,
// written by ./gen.
//
//go:embed data/zh.dict.zst
var zhDict []byte

var (
	zhOnce   sync.Once
	zhTrie   *dictfile.Trie
	zhErr    error
	zhLoaded atomic.Bool
)

// chinese returns the Chinese dictionary, loading it on first use.
func chinese() (*dictfile.Trie, error) {
	zhOnce.Do(func() {
		zhTrie, zhErr = loadChinese()
		zhLoaded.Store(true)
	})
	return zhTrie, zhErr
}

func loadChinese() (*dictfile.Trie, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("load Chinese dictionary: %w", err)
	}
	defer dec.Close()
	raw, err := dec.DecodeAll(zhDict, nil)
	if err != nil {
		return nil, fmt.Errorf("load Chinese dictionary: %w", err)
	}
	t, err := dictfile.Read(raw)
	if err != nil {
		return nil, fmt.Errorf("load Chinese dictionary: %w", err)
	}
	return t, nil
}

// LoadChinese loads the Chinese dictionary now instead of at the first
// text with CJK characters, and reports whether it is usable. Tokenizers
// call it themselves; a stage calls it only to move the cost (tens of
// milliseconds) out of its first record.
func LoadChinese() error {
	_, err := chinese()
	return err
}

// Loaded reports whether this process has loaded the Chinese dictionary.
// It stays false while only text without CJK characters is tokenized.
func Loaded() bool { return zhLoaded.Load() }
