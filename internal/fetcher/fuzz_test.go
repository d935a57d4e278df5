package fetcher

import (
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
