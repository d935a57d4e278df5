// Package simwebtest serves a small simweb to a test, with three of its
// sites picked by kind: the fixture of the verify tests.
package simwebtest

import (
	"net/http/httptest"
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
