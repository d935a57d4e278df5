package fetcher

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// TestSimwebThroughProxy fetches a slice of the simulated web through its
// forward proxy and checks the pages against its ground truth: one page
// per URL, robots.txt rules honoured, statuses, and every legacy-encoded
// site decoded to clean UTF-8 whatever it declares.
func TestSimwebThroughProxy(t *testing.T) {
	web := simweb.New(simweb.Config{Seed: 3, Sites: 30, NoFaults: true})
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	perSite := map[string]int{}
	var urls []record.URL
	web.URLs(func(u string) error {
		host := strings.SplitN(strings.TrimPrefix(u, "http://"), "/", 2)[0]
		if perSite[host] < 8 {
			perSite[host]++
			urls = append(urls, record.URL{URL: u})
		}
		return nil
	})
	cfg := testConfig()
	cfg.Proxy = srv.URL
	cfg.PerHost = 4
	cfg.Concurrency = 32
	cfg.Retries = 0
	cfg.Timeout = 10e9
	cfg.MaxCrawlDelay = 10e6 // some sites ask for seconds
	f := newFetcher(t, nil, cfg)
	start := time.Now()
	pages := runAll(t, context.Background(), f, urls)
	t.Logf("%d urls in %v", len(urls), time.Since(start))
	if len(pages) != len(urls) {
		t.Fatalf("%d pages for %d urls", len(pages), len(urls))
	}
	var legacy, checked int
	for _, p := range pages {
		truth, ok := web.Page(p.URL)
		if !ok {
			continue
		}
		checked++
		site, _ := web.Site(truth.Host)
		if hasTrait(site, "down") {
			// Its robots.txt answers 503: the whole host is disallowed.
			if ErrorKind(p.Error) != KindRobotsUnreachable {
				t.Errorf("%s: down host, error %q, want robots-unreachable", p.URL, p.Error)
			}
			continue
		}
		if truth.Disallowed != (ErrorKind(p.Error) == KindRobotsDisallow) {
			t.Errorf("%s: disallowed=%v but error %q", p.URL, truth.Disallowed, p.Error)
			continue
		}
		if truth.Disallowed {
			continue
		}
		if truth.Status != 0 && p.Status != 0 && truth.Location == "" && p.Status != truth.Status {
			t.Errorf("%s: status %d, truth %d", p.URL, p.Status, truth.Status)
		}
		if !utf8.ValidString(p.HTML) || strings.ContainsRune(p.HTML, utf8.RuneError) {
			t.Errorf("%s: html not clean UTF-8 (charset %q)", p.URL, p.Charset)
		}
		if p.Status == 200 && p.HTML != "" && site.Charset != "" && site.Charset != "utf-8" {
			legacy++
			if !sameFamily(p.Charset, site.Charset) {
				t.Errorf("%s: charset %q, site is %s (declared: %s)", p.URL, p.Charset, site.Charset, site.Declared)
			}
		}
	}
	if checked < len(urls)/2 || legacy == 0 {
		t.Errorf("checked %d pages, %d legacy-encoded: the sample is too thin", checked, legacy)
	}
}

func hasTrait(s simweb.SiteTruth, trait string) bool {
	for _, t := range s.Traits {
		if t == trait {
			return true
		}
	}
	return false
}

func sameFamily(got, want string) bool {
	gb := func(s string) bool { return s == "gbk" || s == "gb18030" || s == "gb2312" }
	return got == want || (gb(got) && gb(want))
}
