// Command gen compiles gse's embedded Chinese dictionary into the compact
// form internal/text reads at run time (see internal/text/dictfile), and
// copies gse's Chinese stop-word list beside it. Run it with
//
//	go generate ./internal/text
//
// whenever the gse version in go.mod changes. It loads the dictionary
// exactly as gse.NewEmbed("zh") does, so the words, frequencies and the
// total frequency written are the ones gse itself segments with.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-ego/gse"
	"github.com/klauspost/compress/zstd"

	"github.com/focuscrawl/focuscrawl/internal/text/dictfile"
)

func main() {
	out := flag.String("o", "data", "output directory")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	var seg gse.Segmenter
	seg.SkipLog = true
	if err := seg.LoadDictEmbed("zh"); err != nil {
		return fmt.Errorf("load gse zh dictionary: %w", err)
	}
	d := seg.Dictionary()
	entries := make([]dictfile.Entry, 0, d.NumTokens())
	for i := range d.Tokens {
		tok := &d.Tokens[i]
		f := tok.Freq()
		if f < 1 || f != math.Trunc(f) || f > 1<<53 {
			return fmt.Errorf("word %q: frequency %v is not a positive integer", tok.Text(), f)
		}
		units := gse.SplitWords([]byte(tok.Text()))
		e := dictfile.Entry{Freq: uint64(f), Units: make([]string, len(units))}
		for k, u := range units {
			e.Units[k] = string(u)
		}
		entries = append(entries, e)
	}
	var raw bytes.Buffer
	if err := dictfile.Write(&raw, d.TotalFreq(), entries); err != nil {
		return err
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
		zstd.WithEncoderConcurrency(1))
	if err != nil {
		return err
	}
	packed := enc.EncodeAll(raw.Bytes(), nil)
	if err := os.WriteFile(filepath.Join(dir, "zh.dict.zst"), packed, 0o644); err != nil {
		return err
	}
	if err := seg.LoadStopEmbed(); err != nil {
		return fmt.Errorf("load gse stop words: %w", err)
	}
	stop := make([]string, 0, len(seg.StopWordMap))
	for w := range seg.StopWordMap {
		stop = append(stop, w)
	}
	sort.Strings(stop)
	if err := os.WriteFile(filepath.Join(dir, "stop_zh.txt"), []byte(strings.Join(stop, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("gen: %d words, total frequency %.0f, %d bytes (%d compressed); %d stop words\n",
		len(entries), d.TotalFreq(), raw.Len(), len(packed), len(stop))
	return nil
}
