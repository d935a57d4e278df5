package fetcher

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// FuzzParseTargetAndEncode: any input URL either parses or gives an
// invalid-url error, never a panic, and its error page encodes to one
// valid JSON line.
func FuzzParseTargetAndEncode(f *testing.F) {
	for _, s := range []string{"http://a.test/", "https://[::1]:8443/x?y#z", "http://%zz/", "http://a b/",
		"HTTP://EXAMPLE.COM:80/", "http://中国林业.cn/森林", "http://x:99999/", "\xff", "//x", "http://@/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tg, err := parseTarget(raw)
		if err == nil && (tg.host == "" || tg.origin == "" || tg.robotsPath() == "") {
			t.Fatalf("%q parsed without host/origin/path: %+v", raw, tg)
		}
		p := record.Page{URL: raw}
		if err != nil {
			p.Error = err.Error()
		}
		line := AppendPage(nil, &p)
		if !json.Valid(line) {
			t.Fatalf("invalid JSON for %q: %s", raw, line)
		}
	})
}

// FuzzAppendString: the fast escaper writes exactly what encoding/json
// writes, for any string (invalid UTF-8, controls, U+2028 included).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "森林\u2028\u2029", "\xe2\x80", "\xed\xa0\x80", "\xe0\x80\x80x", "<p>\t\n\x00\x7f</p>", "𠀀😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := appendString(nil, s)
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		if !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, encoding/json %s", s, got, want)
		}
	})
}
