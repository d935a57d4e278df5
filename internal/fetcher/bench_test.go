package fetcher

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// BenchmarkRun fetches ~20 KB Chinese pages over 50 hosts at -c 64 and
// encodes each page record, as cmd/fetch does (server included).
func BenchmarkRun(b *testing.B) {
	page := []byte(strings.ToValidUTF8(strings.Repeat(zhPage, 80)[:20<<10-201], "") + "</p></body></html>")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer srv.Close()
	cfg := Defaults()
	cfg.Delay = 0
	cfg.PerHost = 8
	cfg.Concurrency = 64
	cfg.Resolve = map[string]string{}
	f := newFetcherB(b, srv, cfg)
	in := make(chan record.URL, 64)
	out := make(chan record.Page, 64)
	go func() {
		for i := 0; i < b.N; i++ {
			in <- record.URL{URL: hostURL(srv, fmt.Sprintf("h%d.test", i%50), fmt.Sprintf("/p/%d", i))}
		}
		close(in)
	}()
	b.SetBytes(int64(len(page)))
	b.ResetTimer()
	go f.Run(context.Background(), in, out)
	var buf []byte
	for p := range out {
		if p.Error != "" {
			b.Fatal(p.Error)
		}
		buf = AppendPage(buf[:0], &p)
	}
}

func newFetcherB(b *testing.B, srv *httptest.Server, cfg Config) *Fetcher {
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	cfg.Resolve["*:"+port] = "127.0.0.1"
	f, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}
