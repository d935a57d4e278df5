// Package simwebtest holds test fixtures: a small simweb served with three
// of its sites picked by kind (the verify tests), and a one-host mirror
// (the simweb mirror tests).
package simwebtest

import (
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// Web is a simweb of 40 sites without faults, served until the test ends.
type Web struct {
	*simweb.Web
	// Proxy is the URL of the server: the fetcher's proxy, through which
	// every site of the web is reached.
	Proxy string
	// Store is a bookstore with at most one trait, Shop a shop (not a
	// bookstore) and Forum a forum: the first of each kind.
	Store, Shop, Forum simweb.SiteTruth
}

// Serve builds the web (seed 3) and serves it.
func Serve(t testing.TB) *Web {
	t.Helper()
	w := &Web{Web: simweb.New(simweb.Config{Seed: 3, Sites: 40, NoFaults: true})}
	srv := httptest.NewServer(w.Handler())
	t.Cleanup(srv.Close)
	w.Proxy = srv.URL
	for _, st := range w.Sites() {
		switch {
		case st.Kind == "bookstore" && w.Store.Site == "" && len(st.Traits) <= 1:
			w.Store = st
		case st.Kind == "shop" && w.Shop.Site == "":
			w.Shop = st
		case st.Kind == "forum" && w.Forum.Site == "":
			w.Forum = st
		}
	}
	if w.Store.Site == "" || w.Shop.Site == "" || w.Forum.Site == "" {
		t.Fatal("simwebtest: the web lacks a bookstore, a shop or a forum")
	}
	return w
}

// Mirror writes a one-host mirror into a new temporary directory and
// returns the directory: host a.test (dir a) with a topic section /t/ of
// two pages, a page robots.txt disallows, and a link to a host the mirror
// does not have; rules.yaml gives topic t as a.test's /t/, sources.txt
// maps the host. Extra files (name → body) are written beside them.
func Mirror(t testing.TB, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a/index.html":   `<a href="/t/">topic</a> <a href="/x.html">x</a> <a href="http://elsewhere.test/">out</a>`,
		"a/t/index.html": `<a href="one.html">one</a> <a href="two.html">two</a>`,
		"a/t/one.html":   `one`,
		"a/t/two.html":   `two`,
		"a/x.html":       `x`,
		"a/robots.txt":   "User-agent: *\nDisallow: /x.html\n",
		"rules.yaml":     "topics:\n  t:\n    - {host: a.test, prefix: /t/}\n",
		"sources.txt":    "# the mirror\na.test=a\n",
	}
	maps.Copy(files, extra)
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
