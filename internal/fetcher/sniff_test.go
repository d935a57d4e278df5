package fetcher

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

func zipBytes(t *testing.T, first string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.Create(first)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("<html><body>inside</body></html>"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gzipBytes(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

func utf16LE(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// TestBinaryBodies: bodies served as "text/html; charset=utf-8" that are
// not text become "not html: NAME" records; text, including UTF-16 with a
// byte order mark, is still decoded.
func TestBinaryBodies(t *testing.T) {
	tests := []struct {
		name string
		body []byte
		want string // the error; "" for a page kept as HTML
	}{
		{"zip", zipBytes(t, "data.txt"), "not html: zip"},
		{"docx", zipBytes(t, "[Content_Types].xml"), "not html: ooxml"},
		{"pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), "not html: pdf"},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "not html: png"},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), "not html: jpeg"},
		{"gif", []byte("GIF89a\x01\x00\x01\x00"), "not html: gif"},
		{"webp", []byte("RIFF\x24\x00\x00\x00WEBPVP8 "), "not html: webp"},
		{"gzip left encoded", gzipBytes("<html>twice</html>"), "not html: gzip"},
		{"ole2 doc", []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00"), "not html: ole2"},
		{"binary bytes", []byte("<html>\x01\x02\x03 stuff</html>"), "not html: binary"},
		{"random bytes", randomBytes(4000), "not html: binary"},
		{"utf-16le with BOM", utf16LE("<html><body><p>林业 text</p></body></html>"), ""},
		{"html with stray NUL bytes", strayNULs(), ""},
		{"plain html", []byte("<html><body><p>\x1b$B ISO-2022 escape is text\tok</p></body></html>"), ""},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, tt := range tests {
			if r.URL.Path == "/"+strings.ReplaceAll(tt.name, " ", "-") {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write(tt.body)
				return
			}
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.IgnoreRobots = true
	f := newFetcher(t, srv, cfg)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := f.Fetch(context.Background(), record.URL{URL: hostURL(srv, "files.test", "/"+strings.ReplaceAll(tt.name, " ", "-"))})
			if p.Error != tt.want {
				t.Fatalf("error %q, want %q", p.Error, tt.want)
			}
			if p.Status != 200 || p.ContentType != "text/html" || p.Bytes != int64(len(tt.body)) {
				t.Errorf("status %d, content type %q, bytes %d: want 200, text/html, %d", p.Status, p.ContentType, p.Bytes, len(tt.body))
			}
			switch {
			case tt.want != "" && p.HTML != "":
				t.Errorf("binary body kept as HTML: %q", p.HTML)
			case tt.want == "" && (strings.ContainsRune(p.HTML, '\uFFFD') || !strings.Contains(p.HTML, "<p>")):
				t.Errorf("text body not decoded: %q", p.HTML)
			}
		})
	}
}

// randomBytes is binary data of no known format: seeded, so the test is
// the same every run.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	if b[0] < 0x80 { // never a signature or a byte order mark by chance
		b[0] |= 0x80
	}
	return b
}

// strayNULs is a page of text with a few NUL bytes in it, as a hostile
// or broken server sends them: browsers render it.
func strayNULs() []byte {
	p := "<html><body>" + strings.Repeat("<p>林业 forestry text, a paragraph of a real page.</p>\n", 40) + "</body></html>"
	b := []byte(p)
	for _, at := range []int{100, 700, 1300, 2000} {
		for b[at] >= 0x80 || b[at] == '<' || b[at] == '>' { // an ASCII letter of the text
			at++
		}
		b[at] = 0
	}
	return b
}

func TestSniffBinaryUnit(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "",
		"hello":                    "",
		"\xfe\xff\x00<\x00h":       "", // UTF-16BE BOM
		"\xef\xbb\xbf<html>":       "",
		"SQLite format 3\x00...":   "sqlite",
		"BZh91AY&SY....":           "bzip2",
		"ID3\x03\x00\x00":          "mp3",
		"\x00\x00\x00\x18ftypmp42": "mp4",
		"PK\x03\x04\x14\x00mimetypeapplication/epub+zip": "epub",
		"BM text that starts like a bitmap":              "",
	} {
		name, _ := sniffBinary([]byte(in))
		if name != want {
			t.Errorf("sniffBinary(%q) = %q, want %q", in, name, want)
		}
	}
}

// FuzzSniffBinary: no input makes the sniffer panic, and a byte order
// mark always makes a body text.
func FuzzSniffBinary(f *testing.F) {
	f.Add([]byte("PK\x03\x04[Content_Types].xml"))
	f.Add([]byte("<html>\x00</html>"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBP"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sniffBinary(b)
		for _, bom := range [][]byte{{0xef, 0xbb, 0xbf}, {0xfe, 0xff}, {0xff, 0xfe}} {
			if name, bin := sniffBinary(append(bom, b...)); bin {
				t.Errorf("%q after a BOM is binary (%s)", b, name)
			}
		}
	})
}
