package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/stage/seedurls"
)

func TestSeedSearchSitemapHosts(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/search":
			switch r.URL.Query().Get("q") {
			case "林业":
				fmt.Fprint(w, `{"results":[{"url":"http://a.example.cn/x","title":"A"},{"url":"http://b.example.cn/","title":"B"}]}`)
			case "造林":
				fmt.Fprint(w, `{"results":[{"url":"http://b.example.cn/","title":"B"}]}`)
			default:
				http.Error(w, "down", http.StatusServiceUnavailable)
			}
		case "/robots.txt":
			fmt.Fprintf(w, "Sitemap: %s/sm.xml\n", "http://"+r.Host)
		case "/sm.xml":
			fmt.Fprintf(w, `<urlset><url><loc>%s/p1</loc><lastmod>2024-01-02</lastmod></url></urlset>`, "http://"+r.Host)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	r := runSeed(t, "", nil, "search", "--endpoint", srv.URL, "-q", "林业", "-q", "造林", "-q", "boom", "--delay", "1ms")
	if r.code != 0 {
		t.Fatalf("seed search: exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, `searxng: query "boom" page 1`) {
		t.Errorf("the failing query is not reported: %s", r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d records, want 2:\n%s", len(lines), r.stdout)
	}
	var b struct {
		URL  string
		Site string
		Meta seedurls.SearchMeta
	}
	for _, l := range lines {
		json.Unmarshal([]byte(l), &b)
		if b.URL == "http://b.example.cn/" {
			break
		}
	}
	if b.Site != "example.cn" || fmt.Sprint(b.Meta.Queries) != "[林业 造林]" || b.Meta.Rank != 1 {
		t.Errorf("b.example.cn record %+v, want both queries and best rank 1", b)
	}
	if r := runSeed(t, "", nil, "search", "-q", "x"); r.code != 2 || !strings.Contains(r.stderr, "--endpoint") {
		t.Errorf("searxng without --endpoint: exit %d %s", r.code, r.stderr)
	}

	// The sitemap server is on loopback: refused by default, reached with
	// --allow-private.
	r = runSeed(t, "", nil, "sitemap", "--delay", "0", srv.URL+"/")
	if r.stdout != "" || !strings.Contains(r.stderr, "blocked address 127.0.0.1 (loopback)") {
		t.Errorf("seed sitemap reached loopback without --allow-private: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runSeed(t, "", nil, "sitemap", "--allow-private", "--delay", "0", srv.URL+"/")
	if r.code != 0 || !strings.Contains(r.stdout, `"url":"`+srv.URL+`/p1"`) || !strings.Contains(r.stdout, `"lastmod":"2024-01-02"`) {
		t.Errorf("seed sitemap: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	topic := filepath.Join(t.TempDir(), "t.yaml")
	os.WriteFile(topic, []byte("name: t\ndescription: 林业\nhosts:\n  - {host: www.forestry.gov.cn, rank: national}\n  - {host: lyj.example.cn, rank: county}\n"), 0o644)
	r = runSeed(t, "", nil, "hosts", "--topic", topic, "--rank-priority", "county=0.5")
	if r.code != 0 || !strings.Contains(r.stdout, `"url":"http://www.forestry.gov.cn/","depth":0,"priority":1`) ||
		!strings.Contains(r.stdout, `"url":"http://lyj.example.cn/","depth":0,"priority":0.5`) {
		t.Errorf("seed hosts: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
