package seedurls

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/netguard"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/search"
)

// fakeEngine answers every query with its results; query "boom" fails.
type fakeEngine struct {
	name    string
	results []search.Result
}

func (e fakeEngine) Name() string { return e.name }

func (e fakeEngine) Search(_ context.Context, q string, _ int) ([]search.Result, error) {
	if q == "boom" {
		return nil, errors.New("down")
	}
	return e.results, nil
}

func TestSearch(t *testing.T) {
	engines := []search.Engine{
		fakeEngine{"one", []search.Result{{URL: "http://a.example.cn/x", Title: "A", Rank: 1}, {URL: "http://b.example.cn/", Rank: 2}}},
		fakeEngine{"two", []search.Result{{URL: "http://b.example.cn/", Title: "B", Rank: 1}}},
	}
	var out bytes.Buffer
	err := Search(context.Background(), &out, SearchOptions{Engines: engines, Queries: []string{"林业", "boom"}, Pages: 1, Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]SearchMeta{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var u struct {
			record.URL
			Meta SearchMeta `json:"meta"`
		}
		if err := json.Unmarshal([]byte(l), &u); err != nil {
			t.Fatal(err)
		}
		if u.Site != "example.cn" {
			t.Errorf("%s: site %q", u.URL.URL, u.Site)
		}
		got[u.URL.URL] = u.Meta
	}
	if b := got["http://b.example.cn/"]; len(got) != 2 || b.Rank != 1 || fmt.Sprint(slices.Sorted(slices.Values(b.Engines))) != "[one two]" || fmt.Sprint(b.Queries) != "[林业]" {
		t.Errorf("records %+v: want a and b, b ranked 1 by both engines", got)
	}
	if err := Search(context.Background(), &out, SearchOptions{Engines: engines, Queries: []string{"boom"}}); err == nil {
		t.Error("every request failed, yet no error")
	}
}

func TestQueries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.txt")
	os.WriteFile(path, []byte("# queries\n 造林 \n\nx\n"), 0o644)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := Queries([]string{"x", " ", "林业"}, f)
	if err != nil || fmt.Sprint(qs) != "[x 林业 造林]" {
		t.Errorf("queries %q, %v", qs, err)
	}
}

func TestSitemap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "Sitemap: http://%s/sm.xml\n", r.Host)
		case "/sm.xml":
			fmt.Fprintf(w, `<urlset><url><loc>http://%[1]s/new</loc><lastmod>2024-05-02</lastmod></url>`+
				`<url><loc>http://%[1]s/old</loc><lastmod>2020-01-01</lastmod></url><url><loc>http://%[1]s/c</loc></url></urlset>`, r.Host)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	since, _ := time.Parse(time.DateOnly, "2024-05-01")
	o := SitemapOptions{Since: since, MaxURLs: 10, Timeout: 5 * time.Second, Net: netguard.Policy{AllowPrivate: true}}
	var out bytes.Buffer
	// The start comes from the input, as a url record.
	if err := Sitemap(context.Background(), strings.NewReader(`{"url":"`+srv.URL+`/"}`+"\n"), &out, o); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Count(s, "\n") != 2 || !strings.Contains(s, `/new","depth":0,"site":"127.0.0.1","meta":{"lastmod":"2024-05-02","sitemap":"`+srv.URL+`/sm.xml"}}`) ||
		strings.Contains(s, "/old") {
		t.Errorf("stdout %s: want /new and /c, not /old", s)
	}
	o.Since, o.MaxURLs, o.Starts = time.Time{}, 1, []string{srv.URL + "/sm.xml"}
	out.Reset()
	if err := Sitemap(context.Background(), nil, &out, o); err != nil || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("MaxURLs 1: %v, %s", err, out.String())
	}
	o.Starts = []string{srv.URL + "/none.xml"}
	if err := Sitemap(context.Background(), nil, &out, o); err == nil || !strings.Contains(err.Error(), "all 1 sitemap requests failed") {
		t.Errorf("every request failed: %v", err)
	}
}
