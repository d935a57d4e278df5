package jsonl

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadArchive: a compressed archive damaged anyhow (cut, flipped,
// spliced frames) is read to its end without a panic or a stall: damaged
// frames are skipped and counted, and the reader always moves on.
func FuzzReadArchive(f *testing.F) {
	path := filepath.Join(f.TempDir(), "a.jsonl.zst")
	for run := 0; run < 2; run++ {
		w, err := Append(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, l := range []string{`{"url":"http://a.example/","depth":0}`, `{"url":"http://b.example/x","depth":1}`} {
			if err := w.WriteLine([]byte(l)); err != nil {
				f.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				f.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			f.Fatal(err)
		}
	}
	zst, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(zst)
	f.Add(zst[:len(zst)-5])
	f.Add(append(append([]byte(nil), zst[:len(zst)/2]...), zst...))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("{\"url\":\"http://a.example/\"}\n"))
	zw.Close()
	f.Add(gz.Bytes())
	f.Add([]byte("plain line\n\n{\"url\":1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(nil, bytes.NewReader(data))
		r.MaxLine = 1 << 16
		r.Warnings = io.Discard
		// A few bytes of zstd can stand for a great many lines; the bound
		// only keeps one run short.
		for n := 0; n < 1<<14; n++ {
			l, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil && !errors.Is(err, ErrLineTooLong) {
				break
			}
			if len(l.Bytes) > r.MaxLine {
				t.Fatalf("line of %d bytes over MaxLine %d", len(l.Bytes), r.MaxLine)
			}
		}
		if d := r.Damage(); d.Bytes > int64(len(data)) {
			t.Fatalf("%d damaged bytes skipped in an input of %d", d.Bytes, len(data))
		}
		r.Close()
	})
}
