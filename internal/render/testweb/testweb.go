// Package testweb is a small web for testing and measuring rendering: on
// one host, pages whose content is built by scripts in the ways real
// sites build it (an inline object, fetched JSON, a delay, a
// framework-like bundle behind <noscript>, links made by script,
// client-side routing, endless scroll, a page that never settles), and
// pages that must not be rendered (static, analytics-laden, server-rendered
// with a hydration bundle). Every page carries its ground truth: whether
// it needs scripts, and the markers (words and link targets) its content
// holds once built.
//
// It serves by path on any host name; a second host (any other name)
// stands for third parties and serves an analytics script.
package testweb

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Page is one page of the web and its truth.
type Page struct {
	Path string
	Kind string
	// NeedsJS says the page's content is built by scripts.
	NeedsJS bool
	// Markers are strings the page's content holds once built: words of
	// its text and the targets of its links.
	Markers []string
	// Endless pages never settle: they must be cut at the time cap.
	Endless bool
}

// Kinds of page, those that need scripts first.
var (
	ScriptKinds = []string{"inline-object", "fetched-json", "delayed", "bundle", "script-links", "routing", "endless-scroll"}
	StaticKinds = []string{"static", "static-short", "analytics", "ssr"}
)

// Web is the test web: n variants of every kind, plus one page that never
// settles. It counts the requests it gets by path prefix.
type Web struct {
	N        int
	ThirdHit func(path string) // called for each request to a third-party host
	mu       sync.Mutex
	hits     map[string]int
}

// New returns a web with n pages of each kind.
func New(n int) *Web { return &Web{N: n, hits: map[string]int{}} }

// Hits tells how many requests paths starting with prefix got.
func (w *Web) Hits(prefix string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := 0
	for p, n := range w.hits {
		if strings.HasPrefix(p, prefix) {
			t += n
		}
	}
	return t
}

// Pages lists every page with its truth.
func (w *Web) Pages() []Page {
	var ps []Page
	for _, k := range append(append([]string{}, ScriptKinds...), StaticKinds...) {
		for i := 0; i < w.N; i++ {
			ps = append(ps, Page{Path: pagePath(k, i), Kind: k, NeedsJS: needsJS(k), Markers: markers(k, i)})
		}
	}
	return append(ps, Page{Path: "/ticker/0", Kind: "ticker", NeedsJS: true, Markers: []string{"tick-start"}, Endless: true})
}

func needsJS(kind string) bool {
	for _, k := range ScriptKinds {
		if k == kind {
			return true
		}
	}
	return false
}

func pagePath(kind string, i int) string {
	if kind == "routing" {
		return fmt.Sprintf("/routing/%d/about", i)
	}
	return fmt.Sprintf("/%s/%d", kind, i)
}

// words are the vocabulary of the pages' text; a page's marker words are
// made from its kind and number so that no two pages share them.
var words = strings.Fields(`forest plantation thinning seedling canopy survey timber nursery watershed
 species rotation stand density habitat restoration pruning inventory soil erosion grassland
 造林 抚育 间伐 苗圃 林班 小班 采伐 防火 湿地 保护`)

func marker(kind string, i, j int) string { return fmt.Sprintf("%s-%d-m%d", kind, i, j) }

func markers(kind string, i int) []string {
	var m []string
	for j := 0; j < 4; j++ {
		m = append(m, marker(kind, i, j))
	}
	switch kind {
	case "script-links", "routing":
		m = append(m, fmt.Sprintf("/%s/%d/link%d", kind, i, 1), fmt.Sprintf("/%s/%d/link%d", kind, i, 2))
	case "endless-scroll":
		// Items of the second and third screens come only by scrolling.
		m = append(m, fmt.Sprintf("item %d-%d", i, 15), fmt.Sprintf("item %d-%d", i, 25))
	}
	return m
}

// prose is n words of text holding the page's markers.
func prose(kind string, i, n int) string {
	var b strings.Builder
	step := max(n/4, 1)
	for j := 0; j < n; j++ {
		if j%step == 0 && j/step < 4 {
			b.WriteString(marker(kind, i, j/step) + " ")
		}
		b.WriteString(words[(i*7+j*3)%len(words)])
		b.WriteByte(' ')
	}
	return strings.TrimSpace(b.String())
}

// chrome is the navigation and footer every page of the site has; its size
// varies from page to page.
func chrome(i int) (nav, footer string) {
	nav = `<nav><a href="/">Home</a> <a href="/news/">News</a> <a href="/about/">About us</a> <a href="/contact/">Contact</a></nav>`
	footer = `<footer>` + strings.Repeat("Forestry bureau of the province, all rights reserved. ", 1+i%4) + `</footer>`
	if i%3 == 2 {
		// A portal's sidebar: static text around the script-built part.
		nav += `<aside><h2>Notices</h2><p>` + prose("aside", i, 60+i%4*25) + `</p></aside>`
	}
	return
}

func doc(title, head, body string) string {
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>` + title + `</title>` + head + `</head><body>` + body + `</body></html>`
}

const analytics = `<script>var _hmt = _hmt || []; (function() { var hm = document.createElement("script");
hm.src = "http://stats.example/hm.js?ab12"; var s = document.getElementsByTagName("script")[0]; s.parentNode.insertBefore(hm, s); })();</script>
<script async src="http://stats.example/gtag/js?id=G-1"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-1');</script>`

// ServeHTTP serves the web.
func (w *Web) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	host, _, _ := strings.Cut(r.Host, ":")
	w.mu.Lock()
	w.hits[r.URL.Path]++
	w.mu.Unlock()
	if host == "stats.example" {
		if w.ThirdHit != nil {
			w.ThirdHit(r.URL.Path)
		}
		rw.Header().Set("Content-Type", "application/javascript")
		rw.Write([]byte("window.__stats = 1;"))
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if r.URL.Path == "/robots.txt" {
		rw.Write([]byte("User-agent: *\nDisallow: /private/\n"))
		return
	}
	if len(parts) < 2 {
		http.NotFound(rw, r)
		return
	}
	kind := parts[0]
	i, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(parts[1], "ssr-"), ".js"))
	if kind == "api" {
		i, err = strconv.Atoi(strings.TrimSuffix(parts[1], ".json"))
	}
	if kind == "img" || kind == "font" || kind == "css" {
		rw.Header().Set("Content-Type", "application/octet-stream")
		rw.Write([]byte("x"))
		return
	}
	if err != nil && kind != "lib" {
		http.NotFound(rw, r)
		return
	}
	switch kind {
	case "api":
		rw.Header().Set("Content-Type", "application/json")
		items := []string{}
		for j := 0; j < 4; j++ {
			items = append(items, marker("fetched-json", i, j)+" "+prose("x", i, 12))
		}
		json.NewEncoder(rw).Encode(map[string]any{"items": items})
		return
	case "static-js", "lib":
		rw.Header().Set("Content-Type", "application/javascript")
		switch {
		case kind == "lib":
			rw.Write([]byte(menuJS))
		case strings.HasPrefix(parts[1], "ssr-"):
			rw.Write([]byte(ssrBundle))
		default:
			rw.Write([]byte(bundle(i)))
		}
		return
	case "private":
		rw.Header().Set("Content-Type", "application/json")
		rw.Write([]byte(`{"secret":"private-data-leaked"}`))
		return
	}
	body, ok := w.page(kind, i)
	if !ok {
		http.NotFound(rw, r)
		return
	}
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.Write([]byte(body))
}
