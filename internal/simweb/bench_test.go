package simweb

import (
	"io"
	"net/http/httptest"
	"testing"
)

// benchURLs returns n URLs of the web, spread over all sites; with
// contentOnly, only pages of content (homes, lists, articles, products,
// threads).
func benchURLs(w *Web, n int, contentOnly ...bool) []string {
	var all []string
	w.URLs(func(u string) error {
		if len(contentOnly) > 0 && contentOnly[0] {
			pt, _ := w.Page(u)
			switch pt.Kind {
			case "home", "list", "article", "product", "thread":
			default:
				return nil
			}
		}
		all = append(all, u)
		return nil
	})
	step := len(all) / n
	if step == 0 {
		step = 1
	}
	var out []string
	for i := 0; i < len(all) && len(out) < n; i += step {
		out = append(out, all[i])
	}
	return out
}

// BenchmarkHandler renders pages through the handler in process: the cost
// of one page on one core, HTML generation and GBK encoding included.
func BenchmarkHandler(b *testing.B) {
	w := New(Config{Seed: 1, NoFaults: true})
	urls := benchURLs(w, 2000, true)
	h := w.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	var bytes int64
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest("GET", urls[i%len(urls)], nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		bytes += int64(rec.Body.Len())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(bytes)/float64(b.N), "bytes/page")
}

// BenchmarkServeLoopback fetches pages over a loopback TCP connection, the
// way fetch sees the web when it uses simweb as its proxy.
func BenchmarkServeLoopback(b *testing.B) {
	w := New(Config{Seed: 1, NoFaults: true})
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	urls := benchURLs(w, 2000, true)
	client := proxyClient(srv.URL)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			resp, err := client.Get(urls[i%len(urls)])
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}
