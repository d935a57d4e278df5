package jsonl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

type rec struct {
	URL  string `json:"url"`
	Note string `json:"note,omitempty"`
}

// TestWriterCompressedRoundTrip writes .gz, .zst and plain files and reads
// them back; Append adds a gzip member or zstd frame that readers join.
func TestWriterCompressedRoundTrip(t *testing.T) {
	for _, name := range []string{"out.jsonl", "out.jsonl.gz", "out.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			w, err := Create(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 1000; i++ {
				if err := w.Write(rec{URL: fmt.Sprintf("http://a.example/?x=%d&y=<%d>", i, i)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			a, err := Append(path)
			if err != nil {
				t.Fatal(err)
			}
			a.WriteLine([]byte(`{"url":"appended"}`))
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(path)
			if compressed := !strings.Contains(string(raw), "a.example"); compressed != (name != "out.jsonl") {
				t.Fatalf("compressed = %v for %s", compressed, name)
			}
			got := readAll(t, NewReader([]string{path}, nil))
			if len(got) != 1001 {
				t.Fatalf("read %d lines, want 1001", len(got))
			}
			if want := path + ":1 " + `{"url":"http://a.example/?x=0&y=<0>"}`; got[0] != want {
				t.Fatalf("first line %s, want %s (no HTML escaping)", got[0], want)
			}
			if want := path + `:1001 {"url":"appended"}`; got[1000] != want {
				t.Fatalf("last line %s, want %s", got[1000], want)
			}
		})
	}
}

// TestWriterFlushesWithoutClose: a record written to a pipe reaches its
// reader while the writer stays open, for plain and compressed streams.
func TestWriterFlushesWithoutClose(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw)
	defer w.Close()
	br := bufio.NewReader(pr)
	for i := 0; i < 3; i++ {
		start := time.Now()
		if err := w.Write(rec{URL: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
		line := make(chan string, 1)
		go func() { l, _ := br.ReadString('\n'); line <- l }()
		select {
		case l := <-line:
			if l != fmt.Sprintf("{\"url\":\"%d\"}\n", i) {
				t.Fatalf("line %q", l)
			}
			t.Logf("record %d readable after %v", i, time.Since(start))
		case <-time.After(2 * time.Second):
			t.Fatalf("record %d not flushed while the writer stayed open", i)
		}
	}
}

func TestWriterFlushesCompressedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl.zst")
	w, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write(rec{URL: "first"})
	deadline := time.Now().Add(2 * time.Second)
	for {
		r := NewReader([]string{path}, nil)
		r.Warnings = io.Discard // the open frame of a file being written is reported as cut
		l, err := r.Next()
		r.Close()
		if err == nil && string(l.Bytes) == `{"url":"first"}` {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("record not in the .zst file while it is open: %q, %v", l.Bytes, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWriterConcurrentLinesWhole: records written from many goroutines
// never interleave.
func TestWriterConcurrentLinesWhole(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw)
	long := strings.Repeat("z", 10000)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				w.Write(rec{URL: fmt.Sprint(g), Note: long})
			}
		}()
	}
	go func() { wg.Wait(); w.Close(); pw.Close() }()
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), `{"url":"`) || !strings.HasSuffix(sc.Text(), long+`"}`) {
			t.Fatalf("broken line %.80q", sc.Text())
		}
		n++
	}
	if n != 1600 {
		t.Fatalf("%d lines, want 1600", n)
	}
}

// TestWriterClosedPipe: a write to a closed pipe gives EPIPE, which sticks.
func TestWriterClosedPipe(t *testing.T) {
	r, wf, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer wf.Close()
	w := NewWriter(wf)
	w.Write(rec{URL: "x"})
	if err := w.Flush(); !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Flush on a closed pipe: %v, want EPIPE", err)
	}
	if err := w.Write(rec{URL: "y"}); !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Write after EPIPE: %v", err)
	}
	if err := w.Close(); !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Close after EPIPE: %v", err)
	}
}

func TestCreateStdout(t *testing.T) {
	var b strings.Builder
	for _, name := range []string{"", "-"} {
		b.Reset()
		w, err := Create(name, &b)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(rec{URL: "u"})
		w.Close()
		if b.String() != "{\"url\":\"u\"}\n" {
			t.Fatalf("Create(%q) wrote %q", name, b.String())
		}
	}
	if _, err := Create(filepath.Join(t.TempDir(), "no", "such", "dir.jsonl"), nil); err == nil {
		t.Fatal("Create in a missing directory succeeded")
	}
}
