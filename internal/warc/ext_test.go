package warc

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreateFollowsTheExtension: --warc t.warc used to write gzip whatever
// the name; the name says the format, as -o does.
func TestCreateFollowsTheExtension(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		gzip bool
	}{{"t.warc", false}, {"t.warc.gz", true}, {"t.warcfile", false}} {
		path := filepath.Join(dir, tt.name)
		w, err := Create(path, "test")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteExchange(Exchange{TargetURI: "http://a.test/", Request: []byte("GET / HTTP/1.1\r\n\r\n"),
			ResponseHead: []byte("HTTP/1.1 200 OK\r\n\r\n"), Body: []byte("hi")}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if isGzip := len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b; isGzip != tt.gzip {
			t.Errorf("%s: gzip %v, want %v", tt.name, isGzip, tt.gzip)
		}
		if !tt.gzip && !strings.HasPrefix(string(b), "WARC/1.1\r\nWARC-Type: warcinfo\r\n") {
			t.Errorf("%s: starts %q", tt.name, b[:min(len(b), 40)])
		}
		f, _ := os.Open(path)
		r := NewReader(f)
		var types []string
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			types = append(types, rec.Type)
		}
		f.Close()
		if strings.Join(types, ",") != "warcinfo,request,response" {
			t.Errorf("%s: records %v", tt.name, types)
		}
	}
	if _, err := Create(filepath.Join(dir, "t.warc.zst"), "test"); err == nil || !strings.Contains(err.Error(), ".warc.gz") {
		t.Errorf(".zst: %v", err)
	}
}
