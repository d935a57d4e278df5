package jsonl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zstded(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readAll returns "NAME:LINE text" for every line.
func readAll(t *testing.T, r *Reader) []string {
	t.Helper()
	var got []string
	for {
		l, err := r.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l.String()+" "+string(l.Bytes))
	}
}

// TestReaderSeveralInputsInOrder reads plain, gzip and zstd files and
// stdin one after another, compressed ones found by name and by magic.
func TestReaderSeveralInputsInOrder(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.txt")
	gz := filepath.Join(dir, "b.jsonl.gz")
	zst := filepath.Join(dir, "c.jsonl.zst")
	gzNoSuffix := filepath.Join(dir, "d.data")
	zstNoSuffix := filepath.Join(dir, "e.data")
	writeFile(t, plain, []byte("a1\r\n\n  \na4\nno-newline"))
	writeFile(t, gz, gzipped(t, "b1\nb2\n"))
	writeFile(t, zst, zstded(t, "c1\n\nc3\n"))
	writeFile(t, gzNoSuffix, gzipped(t, "d1\n"))
	writeFile(t, zstNoSuffix, zstded(t, "e1\n"))
	r := NewReader([]string{plain, gz, "-", zst, gzNoSuffix, zstNoSuffix}, strings.NewReader("s1\ns2"))
	defer r.Close()
	got := readAll(t, r)
	want := []string{
		plain + ":1 a1", plain + ":4 a4", plain + ":5 no-newline",
		gz + ":1 b1", gz + ":2 b2",
		"stdin:1 s1", "stdin:2 s2",
		zst + ":1 c1", zst + ":3 c3",
		gzNoSuffix + ":1 d1", zstNoSuffix + ":1 e1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReaderStdinByDefault(t *testing.T) {
	got := readAll(t, NewReader(nil, strings.NewReader("x\ny\n")))
	if strings.Join(got, ",") != "stdin:1 x,stdin:2 y" {
		t.Fatalf("got %v", got)
	}
}

func TestReaderErrors(t *testing.T) {
	dir := t.TempDir()
	badGz := filepath.Join(dir, "bad.gz")
	writeFile(t, badGz, []byte("this is not gzip"))
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"missing file", []string{filepath.Join(dir, "missing.txt")}, "missing.txt"},
		{"corrupt gzip", []string{badGz}, "gzip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewReader(tt.files, nil).Next()
			if err == nil || err == io.EOF || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one naming %q", err, tt.want)
			}
		})
	}
}

// TestReaderLineLimit: a line of exactly 64 MiB is returned whole; one
// byte more is cut at 64 MiB and reported, and reading goes on.
func TestReaderLineLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 128 MiB")
	}
	exact := bytes.Repeat([]byte("x"), DefaultMaxLine)
	over := bytes.Repeat([]byte("y"), DefaultMaxLine+1)
	in := io.MultiReader(bytes.NewReader(exact), strings.NewReader("\n"),
		bytes.NewReader(over), strings.NewReader("\nafter\n"))
	r := NewReader(nil, in)
	l, err := r.Next()
	if err != nil || len(l.Bytes) != DefaultMaxLine || l.Num != 1 {
		t.Fatalf("exact line: %d bytes, line %d, %v", len(l.Bytes), l.Num, err)
	}
	l, err = r.Next()
	if !errors.Is(err, ErrLineTooLong) || len(l.Bytes) != DefaultMaxLine || l.Num != 2 || l.Bytes[0] != 'y' {
		t.Fatalf("long line: %d bytes, line %d, %v", len(l.Bytes), l.Num, err)
	}
	l, err = r.Next()
	if err != nil || string(l.Bytes) != "after" || l.Num != 3 {
		t.Fatalf("after the long line: %q line %d, %v", l.Bytes, l.Num, err)
	}
}

func TestReaderSmallLimit(t *testing.T) {
	r := NewReader(nil, strings.NewReader("12345\n123456\n1234567890123\nok\n"))
	r.MaxLine = 6
	var got []string
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		mark := ""
		if errors.Is(err, ErrLineTooLong) {
			mark = "!"
		} else if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(l.Bytes)+mark)
	}
	if want := "12345,123456,123456!,ok"; strings.Join(got, ",") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}

func TestReaderBuffered(t *testing.T) {
	pr, pw := io.Pipe()
	r := NewReader(nil, pr)
	go pw.Write([]byte("a\nb\n"))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if !r.Buffered() {
		t.Fatal("Buffered() = false with a second line in the buffer")
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if r.Buffered() {
		t.Fatal("Buffered() = true with nothing left to read")
	}
	pw.Close()
}
