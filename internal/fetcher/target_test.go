package fetcher

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// TestTargetReadsHostsAsSeedDoes: a host written as a number, in hex, in
// short form, or with a trailing dot is read as the address it names, as
// seed urls reads it (urlx.Normalize), so the politeness key is the one
// the frontier keeps for it.
func TestTargetReadsHostsAsSeedDoes(t *testing.T) {
	for _, tc := range []struct{ raw, host string }{
		{"http://2130706433/", "127.0.0.1"},
		{"http://0x7f.1/x", "127.0.0.1"},
		{"http://127.1:8080/", "127.0.0.1:8080"},
		{"http://0177.0.0.1/", "127.0.0.1"},
		{"http://localhost./", "localhost"},
		{"http://LOCALHOST.:81/a#frag", "localhost:81"},
		{"http://Example.COM./p", "example.com"},
	} {
		tg, err := parseTarget(tc.raw)
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if tg.host != tc.host || tg.url.Hostname() != strings.Split(tc.host, ":")[0] {
			t.Errorf("%s: host key %q, dialled %q; want %q", tc.raw, tg.host, tg.url.Hostname(), tc.host)
		}
		norm, err := urlx.Normalize(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		if h := urlx.Host(norm); h != tg.host {
			t.Errorf("%s: seed's host key %q, fetch's %q", tc.raw, h, tg.host)
		}
	}
}

// TestNumericLoopbackIsBlocked: fetch with its address policy refuses
// 2130706433, 0x7f.1, 127.1 and localhost. as the loopback addresses they
// are, instead of sending them to DNS; allowed (--allow-private), they
// reach the server on 127.0.0.1.
func TestNumericLoopbackIsBlocked(t *testing.T) {
	srv := httptest.NewServer(htmlHandler("<title>t</title><p>served on loopback</p>"))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	hosts := []string{"2130706433", "0x7f.1", "127.1", "localhost."}
	for _, allow := range []bool{false, true} {
		cfg := testConfig()
		cfg.AllowPrivate = allow
		f, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hosts {
			raw := "http://" + h + ":" + port + "/"
			p := f.Fetch(context.Background(), record.URL{URL: raw})
			switch {
			case !allow && ErrorKind(p.Error) != KindBlocked:
				t.Errorf("%s: error %q, want it blocked as loopback", raw, p.Error)
			case allow && (p.Error != "" || p.Status != 200):
				t.Errorf("%s allowed: status %d, error %q; want the page", raw, p.Status, p.Error)
			}
			if p.URL != raw {
				t.Errorf("%s: the record's url became %q", raw, p.URL)
			}
		}
		f.Close()
	}
}
