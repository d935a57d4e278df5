package search

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/netguard"
)

// fakeSearXNG answers q=books with two pages and fails on q=broken.
func fakeSearXNG(t *testing.T) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" {
			http.Error(w, "bad request", 400)
			return
		}
		q, page := r.URL.Query().Get("q"), r.URL.Query().Get("pageno")
		var results []map[string]string
		switch {
		case q == "broken":
			http.Error(w, "boom", 500)
			return
		case q == "books" && page == "1":
			results = []map[string]string{{"url": "https://shop.example.cn/", "title": "Shop"}, {"url": "https://b.example.com/x#frag", "title": "B", "content": "about b"}}
		case q == "books" && page == "2":
			results = []map[string]string{{"url": "https://c.example.com/", "title": "C"}}
		case q == "书店" && page == "1":
			results = []map[string]string{{"url": "https://c.example.com/", "title": "C"}, {"url": "HTTPS://SHOP.example.cn/", "title": "Shop again"}}
		}
		json.NewEncoder(w).Encode(map[string]any{"query": q, "results": results})
	}))
}

func TestSearXNGMetaSearch(t *testing.T) {
	srv := fakeSearXNG(t)
	defer srv.Close()
	eng := &SearXNG{Endpoint: srv.URL, Client: NewClient(5*time.Second, "", netguard.Policy{})}
	var mu sync.Mutex
	var failures []string
	found, err := MetaSearch(context.Background(), []Engine{eng}, Options{
		Queries: []string{"books", "broken", "书店"}, Pages: 3, Delay: time.Millisecond,
		OnError: func(engine, q string, page int, err error) {
			mu.Lock()
			failures = append(failures, fmt.Sprintf("%s %s %d", engine, q, page))
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(failures) != "[searxng broken 1]" {
		t.Errorf("failures %v, want the broken query only", failures)
	}
	got := map[string]Found{}
	for _, f := range found {
		got[f.URL] = f
	}
	if len(found) != 3 {
		t.Fatalf("found %d URLs, want 3: %+v", len(found), found)
	}
	shop := got["https://shop.example.cn/"]
	if shop.Rank != 1 || fmt.Sprint(shop.Queries) != "[books 书店]" || shop.Site != "example.cn" {
		t.Errorf("shop = %+v, want rank 1 found by both queries", shop)
	}
	c := got["https://c.example.com/"]
	if c.Rank != 1 || len(c.Queries) != 2 {
		t.Errorf("c = %+v, want best rank 1 (from 书店) and two queries", c)
	}
	if _, ok := got["https://b.example.com/x"]; !ok {
		t.Errorf("fragment not normalised away: %v", found)
	}
	if found[0].URL != "https://shop.example.cn/" {
		t.Errorf("first %s, want the best-ranked URL found first", found[0].URL)
	}
}

func TestNothingAnswered(t *testing.T) {
	srv := fakeSearXNG(t)
	defer srv.Close()
	eng := &SearXNG{Endpoint: srv.URL + "/search", Client: NewClient(5*time.Second, "", netguard.Policy{})}
	_, err := MetaSearch(context.Background(), []Engine{eng}, Options{Queries: []string{"broken"}})
	if !errors.Is(err, ErrNothingAnswered) {
		t.Fatalf("err %v, want ErrNothingAnswered", err)
	}
}

const resultPage = `<html><head><meta charset="gbk"></head><body>
<div class="res"><h3><a href="/link?url=%s">第一 Result</a></h3><p class="abs">first snippet</p></div>
<div class="res"><h3><a href="/ck/a?u=a1%s">Second</a></h3><p class="abs">second</p></div>
<div class="res"><h3><a href="/jump/%s">Third</a></h3></div>
<div class="res"><h3><a href="/search?q=related">Related search</a></h3></div>
<div class="res"><h3><a href="javascript:void(0)">Nothing</a></h3></div>
</body></html>`

func TestGenericEngine(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/s":
			if r.URL.Query().Get("wd") != "林业" {
				t.Errorf("query %q", r.URL.RawQuery)
			}
			if r.Header.Get("Accept-Language") != "zh-CN" {
				t.Errorf("headers not sent: %v", r.Header)
			}
			if r.URL.Query().Get("pn") == "20" {
				w.Write([]byte(`<html><body><div class="captcha">verify</div></body></html>`))
				return
			}
			fmt.Fprintf(w, resultPage, "https%3A%2F%2Fone.example.cn%2Fa",
				base64.RawURLEncoding.EncodeToString([]byte("https://two.example.com/b?x=1")), "3")
		case strings.HasPrefix(r.URL.Path, "/jump/"):
			w.Header().Set("Location", "https://three.example.org/")
			w.WriteHeader(http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	yml := `
name: fake
url: ` + srv.URL + `/s?wd={query}&pn={offset}
per_page: 10
headers: {Accept-Language: zh-CN}
result: div.res
link: h3 a
snippet: p.abs
blocked: div.captcha
unwrap:
  match: '/(link|ck/a|jump/)'
  regexp: '[?&](?:url|u)=([^&]+)'
  trim_prefix: a1
`
	g, err := ParseGeneric([]byte(yml), "fake.yaml", NewClient(5*time.Second, "", netguard.Policy{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.PageURL("林业", 3); !strings.HasSuffix(got, "pn=20") {
		t.Errorf("PageURL page 3 = %s, want offset 20", got)
	}
	// The first link is plain percent-encoding, the second base64: one
	// description cannot hold both, so test them with two.
	rs, err := g.Search(context.Background(), "林业", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 || rs[0].URL != "https://one.example.cn/a" || rs[0].Title != "第一 Result" || rs[0].Snippet != "first snippet" {
		t.Fatalf("results %+v", rs)
	}
	for _, r := range rs {
		if strings.Contains(r.URL, "related") || strings.HasPrefix(r.URL, srv.URL) {
			t.Errorf("engine's own link kept: %s", r.URL)
		}
	}
	if _, err := g.Search(context.Background(), "林业", 3); !errors.Is(err, ErrBlocked) {
		t.Errorf("captcha page: err %v, want ErrBlocked", err)
	}

	yml2 := strings.Replace(yml, "trim_prefix: a1", "trim_prefix: a1\n  base64: true", 1)
	yml2 = strings.Replace(yml2, "match: '/(link|ck/a|jump/)'", "match: '/ck/a'", 1)
	g2, err := ParseGeneric([]byte(yml2), "fake2.yaml", NewClient(5*time.Second, "", netguard.Policy{}))
	if err != nil {
		t.Fatal(err)
	}
	rs, err = g2.Search(context.Background(), "林业", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !hasURL(rs, "https://two.example.com/b?x=1") {
		t.Errorf("base64 unwrap: %+v", rs)
	}

	yml3 := strings.Replace(yml, "regexp: '[?&](?:url|u)=([^&]+)'\n  trim_prefix: a1", "redirect: true", 1)
	yml3 = strings.Replace(yml3, "match: '/(link|ck/a|jump/)'", "match: '/jump/'", 1)
	g3, err := ParseGeneric([]byte(yml3), "fake3.yaml", NewClient(5*time.Second, "", netguard.Policy{}))
	if err != nil {
		t.Fatal(err)
	}
	rs, err = g3.Search(context.Background(), "林业", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !hasURL(rs, "https://three.example.org/") {
		t.Errorf("redirect unwrap: %+v", rs)
	}
}

func hasURL(rs []Result, u string) bool {
	for _, r := range rs {
		if r.URL == u {
			return true
		}
	}
	return false
}

func TestParseGenericErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown key", "name: x\nurl: http://e/?q={query}\nresult: a\nresults: b\n", "field results not found"},
		{"no query", "name: x\nurl: http://e/\nresult: a\n", "e.yaml:2: url: the template has no {query}"},
		{"bad selector", "name: x\nurl: http://e/?q={query}\nresult: a\nlink: 'a[['\n", "e.yaml:4: link: CSS selector"},
		{"bad regexp", "name: x\nurl: http://e/?q={query}\nresult: a\nunwrap:\n  regexp: '('\n", "e.yaml:5: unwrap.regexp"},
		{"no group", "name: x\nurl: http://e/?q={query}\nresult: a\nunwrap:\n  regexp: 'u='\n", "capture group"},
		{"no result", "name: x\nurl: http://e/?q={query}\n", "result: missing"},
		{"encoding", "name: x\nurl: http://e/?q={query}\nresult: a\nquery_encoding: latin1\n", "query_encoding"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseGeneric([]byte(tt.yaml), "e.yaml", NewClient(time.Second, "", netguard.Policy{}))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestExampleEngines(t *testing.T) {
	for _, name := range []string{"baidu", "bing", "sogou"} {
		t.Run(name, func(t *testing.T) {
			g, err := LoadGeneric("../../examples/engines/"+name+".yaml", NewClient(time.Second, "", netguard.Policy{}))
			if err != nil {
				t.Fatal(err)
			}
			if g.Name() != name || !strings.Contains(g.PageURL("林业 政策", 2), url.QueryEscape("林业 政策")) {
				t.Errorf("%s: name %q, page URL %s", name, g.Name(), g.PageURL("林业 政策", 2))
			}
		})
	}
}

// TestClientChecksAddresses: an engine's own endpoint may be on loopback
// (the user chose it), but other loopback addresses (a redirect link an
// engine hands out) are refused unless private addresses are allowed.
func TestClientChecksAddresses(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("hello"))
	}))
	defer other.Close()
	c := NewClient(5*time.Second, "", netguard.Policy{})
	_, _, err := c.get(context.Background(), other.URL+"/", nil)
	var be *netguard.BlockedError
	if !errors.As(err, &be) || be.Class != netguard.ClassLoopback {
		t.Fatalf("untrusted loopback: %v", err)
	}
	c.trust(other.URL)
	if _, _, err := c.get(context.Background(), other.URL+"/", nil); err != nil {
		t.Fatalf("trusted endpoint: %v", err)
	}
	c = NewClient(5*time.Second, "", netguard.Policy{AllowPrivate: true})
	if _, _, err := c.get(context.Background(), other.URL+"/", nil); err != nil {
		t.Fatalf("allow-private: %v", err)
	}
}
