package siteverify

import (
	"context"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// BenchmarkJudge measures the cost of judging one bookstore product page
// (segmenting it and applying the rules to its text), the CPU work of
// verify per page fetched.
func BenchmarkJudge(b *testing.B) {
	tw := newTestWeb(b)
	store := sitesOf(tw.web, "bookstore", 1)[0]
	j := newJudge(b, "rules")
	home := tw.f.Fetch(context.Background(), record.URL{URL: store.Home})
	var page record.Page
	for _, l := range j.Judge(home).Links {
		if pt, ok := tw.web.Page(l.URL); ok && pt.Kind == "product" {
			page = tw.f.Fetch(context.Background(), record.URL{URL: l.URL})
			break
		}
	}
	if page.HTML == "" {
		b.Fatal("no product page")
	}
	b.SetBytes(int64(len(page.HTML)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if jd := j.Judge(page); jd.Score < 0.7 {
			b.Fatalf("score %v", jd.Score)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}
