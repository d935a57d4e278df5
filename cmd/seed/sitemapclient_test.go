package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSitemapEveryRequestFailed: seed sitemap exited 0 with 0 URLs when
// every request failed; it exits 1 and says why.
func TestSitemapEveryRequestFailed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	r := runSeed(t, "", nil, "sitemap", "--allow-private", "--delay", "0", srv.URL+"/sitemap.xml")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "no URLs: all 1 sitemap requests failed (last: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// An empty sitemap that was read is not a failure.
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<urlset></urlset>`)
	}))
	defer empty.Close()
	if r := runSeed(t, "", nil, "sitemap", "--allow-private", "--delay", "0", empty.URL+"/sitemap.xml"); r.code != 0 {
		t.Fatalf("empty sitemap: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestSitemapProxy: --proxy sends the requests through the proxy, here one
// that answers for a host that resolves nowhere.
func TestSitemapProxy(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Host != "sitemap.invalid" {
			http.Error(w, "not proxied", http.StatusBadGateway)
			return
		}
		fmt.Fprint(w, `<urlset><url><loc>http://sitemap.invalid/a</loc></url></urlset>`)
	}))
	defer proxy.Close()
	r := runSeed(t, "", nil, "sitemap", "--delay", "0", "http://sitemap.invalid/sitemap.xml", "--proxy", proxy.URL)
	if r.code != 0 || !strings.Contains(r.stdout, `"url":"http://sitemap.invalid/a"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runSeed(t, "", nil, "sitemap", "--proxy", "::", "http://sitemap.invalid/"); r.code != 2 {
		t.Fatalf("bad --proxy: exit %d, stderr %q", r.code, r.stderr)
	}
}
