package e2e

import (
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/focuscrawl/focuscrawl/internal/simweb"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

var hrefRE = regexp.MustCompile(`<a [^>]*href="([^"]+)"`)

// reachable walks the whole web from the seeds through the handler, as an
// exhaustive crawler that honours robots.txt (Disallow) and strips session
// ids would, and returns the distinct relevant pages of topic it reaches
// (keyed like the evaluator: a redirect or copy by the page it stands for).
func reachable(t testing.TB, w *simweb.Web, seeds []string, topic string) map[string]bool {
	h := w.Handler()
	seen := map[string]bool{}
	found := map[string]bool{}
	queue := append([]string(nil), seeds...)
	for _, s := range seeds {
		seen[s] = true
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		pt, ok := w.Page(u)
		if !ok || pt.Disallowed || pt.Kind == "calendar" {
			continue
		}
		if pt.Relevant(topic) {
			key := pt.URL
			if pt.FinalURL != "" {
				key = pt.FinalURL
			} else if pt.Canonical != "" {
				key = pt.Canonical
			}
			found[key] = true
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
		var links []string
		if loc := rec.Header().Get("Location"); loc != "" {
			links = append(links, loc)
		}
		if rec.Code == 200 {
			body, _ := io.ReadAll(rec.Body)
			if st, ok := w.Site(pt.Host); ok && st.Charset == "gbk" {
				body, _ = simplifiedchinese.GBK.NewDecoder().Bytes(body)
			}
			for _, m := range hrefRE.FindAllSubmatch(body, -1) {
				links = append(links, strings.ReplaceAll(string(m[1]), "&amp;", "&"))
			}
		}
		base, _ := url.Parse(u)
		for _, l := range links {
			ref, err := url.Parse(l)
			if err != nil {
				continue
			}
			n, err := urlx.Normalize(base.ResolveReference(ref).String())
			if err != nil {
				continue
			}
			n = urlx.StripSessionIDs(n)
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return found
}

// TestDiscoveryDenominator checks the definition of the discovery rate's
// denominator: simweb eval's "exist" (every relevant page of a live host
// and path) must be what an exhaustive, robots-honouring crawl from the
// seeds can reach. It renders the whole default web (~20 s): run it with
// FOCUSCRAWL_E2E_REACH=1.
func TestDiscoveryDenominator(t *testing.T) {
	if os.Getenv("FOCUSCRAWL_E2E_REACH") == "" {
		t.Skip("renders the whole web: set FOCUSCRAWL_E2E_REACH=1")
	}
	w := simweb.New(simweb.Config{Seed: 1, NoFaults: true})
	seeds, err := w.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	found := reachable(t, w, seeds, "forestry")
	ev, err := w.NewEvaluator("forestry")
	if err != nil {
		t.Fatal(err)
	}
	exist := ev.Result().Exist
	t.Logf("reachable relevant pages %d, eval's exist %d", len(found), exist)
	if len(found) < exist*99/100 || len(found) > exist {
		t.Errorf("an exhaustive crawl from the seeds reaches %d relevant pages, eval counts %d as existing", len(found), exist)
	}
}
