package siteverify

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

const h = "http://www.a.com"

func TestClassOf(t *testing.T) {
	tests := []struct {
		url, mode, want string
	}{
		{h + "/item.php?id=3&b=2#x", ClassesAbstract, "/item.php?b&id"},
		{h + "/item.php?id=3&b=2#x", ClassesTemplate, "/item.php?b&id"},
		{h + "/product/78411.html", ClassesAbstract, "/product/78411.html"},
		{h + "/product/78411.html", ClassesTemplate, "/product/{n}.html"},
		{h + "/2024/05/a-12_3.html?p=1", ClassesTemplate, "/{n}/{n}/a-{n}_{n}.html?p"},
		{h + "/c/qiulei/", ClassesTemplate, "/c/qiulei/"},
		{h, ClassesTemplate, "/"},
		{"not a url", ClassesTemplate, "not a url"},
	}
	for _, tt := range tests {
		t.Run(tt.mode+" "+tt.url, func(t *testing.T) {
			if got := ClassOf(tt.url, tt.mode); got != tt.want {
				t.Fatalf("ClassOf = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParsePrior(t *testing.T) {
	tests := []struct {
		in   string
		want Prior
		ok   bool
	}{
		{"parent", Prior{Kind: PriorParent}, true},
		{"", Prior{Kind: PriorParent}, true},
		{"Best-Parent", Prior{Kind: PriorBestParent}, true},
		{"mean-parent", Prior{Kind: PriorMeanParent}, true},
		{"0.5", Prior{Kind: PriorConstant, Value: 0.5}, true},
		{"1", Prior{Kind: PriorConstant, Value: 1}, true},
		{"1.5", Prior{}, false},
		{"-0.1", Prior{}, false},
		{"NaN", Prior{}, false},
		{"grandparent", Prior{}, false},
	}
	for _, tt := range tests {
		got, err := ParsePrior(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParsePrior(%q) = %+v, %v", tt.in, got, err)
		}
		if err == nil {
			if back, _ := ParsePrior(got.String()); back != got {
				t.Errorf("ParsePrior(%q).String() = %q does not read back", tt.in, got.String())
			}
		}
	}
}

func TestOptionsErrorsNameTheSetting(t *testing.T) {
	tests := []struct {
		change func(*Options)
		want   string
	}{
		{func(o *Options) { o.Strategy = "dfs" }, `strategy "dfs"`},
		{func(o *Options) { o.Scope = "domain" }, `scope "domain"`},
		{func(o *Options) { o.PageThreshold = 1.2 }, "page threshold"},
		{func(o *Options) { o.NumRelPages = 0 }, "num-rel-pages"},
		{func(o *Options) { o.NumExpPages = -1 }, "num-exp-pages"},
		{func(o *Options) { o.Patience = -1 }, "patience"},
		{func(o *Options) { o.Classes = "paths" }, `classes "paths"`},
		{func(o *Options) { o.Prior = Prior{Kind: PriorConstant, Value: 2} }, "prior"},
	}
	for _, tt := range tests {
		o := DefaultOptions()
		tt.change(&o)
		_, err := New(&fakeSite{}, &fakeSite{}, o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want one naming %q", err, tt.want)
		}
	}
	if _, err := New(&fakeSite{}, &fakeSite{}, Options{}); err == nil {
		t.Error("zero options (num pages 0) accepted")
	}
}

// shopWeb is a small site: a home page linking to an about page, list
// pages and product pages; products score high, the rest low.
func shopWeb() map[string]fakePage {
	return map[string]fakePage{
		h + "/":              {score: 0.2, links: []string{h + "/about.html", h + "/list?p=1", h + "/list?p=2", h + "/p/1.html", h + "/p/2.html", h + "/p/6.html", "http://other.com/x"}},
		h + "/about.html":    {score: 0},
		h + "/list?p=1":      {score: 0.1, links: []string{h + "/p/3.html", h + "/p/4.html"}},
		h + "/list?p=2":      {score: 0.1, links: []string{h + "/p/5.html"}},
		h + "/p/1.html":      {score: 0.9, links: []string{h + "/p/2.html", h + "/p/3.html"}},
		h + "/p/2.html":      {score: 0.8},
		h + "/p/3.html":      {score: 0.75},
		h + "/p/4.html":      {score: 0.9},
		h + "/p/5.html":      {score: 0.9},
		"http://other.com/x": {score: 1},
	}
}

func verifyFake(t *testing.T, fs *fakeSite, o Options, urls ...string) record.Verdict {
	t.Helper()
	v := newVerifier(t, fs, fs, o)
	var in []record.URL
	for _, u := range urls {
		in = append(in, record.URL{URL: u})
	}
	return v.Verify(context.Background(), NewSite(v.Key(urls[0]), in...))
}

func TestStrategiesOnATable(t *testing.T) {
	tests := []struct {
		name     string
		change   func(*Options)
		relevant bool
		order    []string
		reason   string
	}{
		{name: "heuristic goes for the product class",
			relevant: true, order: []string{"/", "/p/1.html", "/p/3.html", "/p/2.html"}, reason: "3 pages ≥ 0.7 after 4 fetched"},
		{name: "bfs takes pages in the order found", change: func(o *Options) { o.Strategy = StrategyBFS },
			relevant: true, order: []string{"/", "/about.html", "/list?p=1", "/list?p=2", "/p/1.html", "/p/2.html", "/p/6.html", "/p/3.html"}},
		{name: "paper's AbstractURL: every product its own class", change: func(o *Options) { o.Classes = ClassesAbstract },
			relevant: true, order: []string{"/", "/list?p=1", "/about.html", "/p/1.html", "/p/2.html", "/p/6.html", "/list?p=2", "/p/3.html"}},
		{name: "budget", change: func(o *Options) { o.Strategy, o.NumExpPages = StrategyBFS, 3 },
			order: []string{"/", "/about.html", "/list?p=1"}, reason: "budget of 3 pages spent: no page ≥ 0.7"},
		{name: "patience", change: func(o *Options) { o.Strategy, o.Patience = StrategyBFS, 2 },
			order: []string{"/", "/about.html"}, reason: "2 pages in a row without one ≥ 0.7 (patience)"},
		{name: "threshold", change: func(o *Options) { o.PageThreshold, o.Patience = 0.95, 0 },
			order:  []string{"/", "/p/1.html", "/p/3.html", "/p/2.html", "/p/6.html", "/list?p=1", "/p/4.html", "/about.html", "/list?p=2", "/p/5.html"},
			reason: "no page left to fetch after 10: no page ≥ 0.95"},
		{name: "one good page is enough", change: func(o *Options) { o.NumRelPages = 1 },
			relevant: true, order: []string{"/", "/p/1.html"}, reason: "1 page ≥ 0.7 after 2 fetched"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			if tt.change != nil {
				tt.change(&o)
			}
			fs := &fakeSite{pages: shopWeb()}
			vd := verifyFake(t, fs, o, h+"/")
			var got []string
			for _, u := range fs.order() {
				got = append(got, strings.TrimPrefix(u, h))
			}
			if vd.Relevant != tt.relevant || !reflect.DeepEqual(got, tt.order) || vd.PagesFetched != len(tt.order) {
				t.Fatalf("relevant %v after %d pages %v;\nwant %v after %v (%s)", vd.Relevant, vd.PagesFetched, got, tt.relevant, tt.order, vd.Reason)
			}
			if !strings.Contains(vd.Reason, tt.reason) {
				t.Fatalf("reason %q lacks %q", vd.Reason, tt.reason)
			}
			if vd.Error != "" {
				t.Fatalf("error %q", vd.Error)
			}
		})
	}
}

func TestVerdictClassesAndEvidence(t *testing.T) {
	fs := &fakeSite{pages: shopWeb()}
	vd := verifyFake(t, fs, DefaultOptions(), h+"/")
	want := []record.ClassStat{
		{AbstractURL: "/p/{n}.html", Mean: 0.817, Expanded: 3, Queued: 1},
		{AbstractURL: "/", Mean: 0.2, Expanded: 1},
		{AbstractURL: "/about.html", Queued: 1},
		{AbstractURL: "/list?p", Queued: 2},
	}
	if !reflect.DeepEqual(vd.Classes, want) {
		t.Fatalf("classes %+v\nwant %+v", vd.Classes, want)
	}
	if vd.BestScore != 0.9 || len(vd.Evidence) != 3 || vd.Evidence[0] != (record.Evidence{URL: h + "/p/1.html", Score: 0.9}) {
		t.Fatalf("best %v evidence %+v", vd.BestScore, vd.Evidence)
	}
}

// TestPriors: the class found on a better page goes first with parent,
// the class linked from the best page with best-parent.
func TestPriors(t *testing.T) {
	pages := map[string]fakePage{
		h + "/":    {score: 0.3, links: []string{h + "/a/1", h + "/b/1"}},
		h + "/a/1": {score: 0.1, links: []string{h + "/c/1"}},
		h + "/b/1": {score: 0.6, links: []string{h + "/c/2", h + "/d/1"}},
		h + "/c/1": {score: 0},
		h + "/c/2": {score: 0},
		h + "/d/1": {score: 0},
	}
	tests := []struct {
		prior string
		third string // the page fetched after /, /a/1 and /b/1
	}{
		{"parent", "/d/1"},      // c's first link was on /a/1 (0.1), d's on /b/1 (0.6)
		{"best-parent", "/c/2"}, // c is linked from /b/1 too (0.6), and has more queued pages
		{"mean-parent", "/d/1"}, // c: (0.1+0.6)/2 < d: 0.6
		{"0.9", "/c/2"},         // both unexpanded at 0.9: c has more pages, and /c/2 comes from the better page
	}
	for _, tt := range tests {
		t.Run(tt.prior, func(t *testing.T) {
			p, err := ParsePrior(tt.prior)
			if err != nil {
				t.Fatal(err)
			}
			o := DefaultOptions()
			o.Prior, o.NumExpPages = p, 4
			fs := &fakeSite{pages: pages}
			// /a/{n} and /b/{n} tie at 0.3 with one page each: /a/1 was found first.
			verifyFake(t, fs, o, h+"/")
			got := fs.order()
			if len(got) != 4 || got[1] != h+"/a/1" || got[2] != h+"/b/1" || got[3] != h+tt.third {
				t.Fatalf("fetched %v, want / /a/1 /b/1 %s", got, tt.third)
			}
		})
	}
}

func TestStartPage(t *testing.T) {
	tests := []struct {
		name     string
		pages    map[string]fakePage
		urls     []string
		order    []string
		relevant bool
		errPart  string
	}{
		{name: "dead site", pages: map[string]fakePage{h + "/x": {err: "dns: no such host"}, h + "/": {err: "dns: no such host"}},
			urls: []string{h + "/x"}, order: []string{"/x", "/"}, errPart: "start page " + h + "/x: dns: no such host"},
		{name: "404 then home", pages: map[string]fakePage{h + "/": {score: 0.9}},
			urls: []string{h + "/gone"}, order: []string{"/gone", "/"}},
		{name: "next input URL", pages: map[string]fakePage{h + "/b": {score: 0.9}, h + "/": {score: 0.1}},
			urls: []string{h + "/gone", h + "/b", h + "/"}, order: []string{"/gone", "/b", "/"}},
		{name: "server error", pages: map[string]fakePage{h + "/": {status: 503}},
			urls: []string{h + "/"}, order: []string{"/"}, errPart: "http 503"},
		{name: "robots", pages: map[string]fakePage{h + "/": {err: "robots-disallow"}},
			urls: []string{h + "/"}, order: []string{"/"}, errPart: "robots: the site's robots.txt forbids it"},
		{name: "moved to another site", pages: map[string]fakePage{h + "/": {score: 1, final: "http://b.org/"}},
			urls: []string{h + "/"}, order: []string{"/"}, errPart: "redirected to another site: http://b.org/"},
		{name: "alias host of the same site", pages: map[string]fakePage{"http://a.com/": {score: 0.9, final: h + "/", links: []string{h + "/1"}}, h + "/1": {score: 0.9}},
			urls: []string{"http://a.com/"}, order: []string{"http://a.com/", "/1"}, relevant: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := &fakeSite{pages: tt.pages}
			o := DefaultOptions()
			o.NumRelPages = 2
			vd := verifyFake(t, fs, o, tt.urls...)
			var got []string
			for _, u := range fs.order() {
				got = append(got, strings.TrimPrefix(u, h))
			}
			if !reflect.DeepEqual(got, tt.order) {
				t.Fatalf("fetched %v, want %v", got, tt.order)
			}
			if tt.errPart == "" {
				if vd.Error != "" || vd.Relevant != tt.relevant {
					t.Fatalf("verdict %+v", vd)
				}
				return
			}
			if vd.Relevant || !strings.Contains(vd.Error, tt.errPart) || vd.Reason != vd.Error {
				t.Fatalf("verdict %+v; want not relevant, error with %q", vd, tt.errPart)
			}
			if tt.name != "robots" && vd.PagesFetched != len(tt.order) {
				t.Fatalf("pages fetched %d, want %d", vd.PagesFetched, len(tt.order))
			}
		})
	}
}

func TestSiteWithoutURLs(t *testing.T) {
	fs := &fakeSite{}
	vd := newVerifier(t, fs, fs, DefaultOptions()).Verify(context.Background(), NewSite("a.com"))
	if vd.Relevant || vd.Error == "" || vd.Site != "a.com" || len(fs.order()) != 0 {
		t.Fatalf("verdict %+v", vd)
	}
}

func TestScopeHost(t *testing.T) {
	pages := map[string]fakePage{
		h + "/":               {score: 0.9, links: []string{"http://shop.a.com/1", h + "/2"}},
		h + "/2":              {score: 0.9},
		"http://shop.a.com/1": {score: 0.9},
	}
	for _, scope := range []string{ScopeSite, ScopeHost} {
		fs := &fakeSite{pages: pages}
		o := DefaultOptions()
		o.Scope = scope
		vd := verifyFake(t, fs, o, h+"/")
		wantSite, wantPages := map[string]string{ScopeSite: "a.com", ScopeHost: "www.a.com"}[scope], map[string]int{ScopeSite: 3, ScopeHost: 2}[scope]
		if vd.Site != wantSite || vd.PagesFetched != wantPages {
			t.Errorf("scope %s: site %q after %d pages, want %q after %d", scope, vd.Site, vd.PagesFetched, wantSite, wantPages)
		}
	}
}

// TestCancel: a run interrupted mid-site ends at once with a canceled
// verdict.
func TestCancel(t *testing.T) {
	fs := &fakeSite{pages: shopWeb(), block: 2}
	v := newVerifier(t, fs, fs, DefaultOptions())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan record.Verdict)
	go func() { done <- v.Verify(ctx, NewSite("a.com", record.URL{URL: h + "/"})) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case vd := <-done:
		if vd.Error != ErrCanceled.Error() || vd.Relevant || vd.PagesFetched != 2 || !strings.Contains(vd.Reason, "canceled after 2") {
			t.Fatalf("verdict %+v", vd)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Verify did not return after cancel")
	}
}

func TestGrouperOrdersURLs(t *testing.T) {
	g := NewGrouper(ScopeSite, 0, 0)
	in := []record.URL{
		{URL: h + "/a", Meta: record.Meta(`{"rank":3}`)},
		{URL: "http://b.org/"},
		{URL: "http://shop.a.com/b", Meta: record.Meta(`{"rank":1}`)},
		{URL: h + "/c"},
		{URL: h + "/d", Lineage: record.Lineage{Priority: 0.5}},
		{URL: h + "/e", Meta: record.Meta(`{"rank":1}`)},
	}
	for _, u := range in {
		if err := g.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Add(record.URL{URL: "mailto:x@y"}); !errors.Is(err, ErrNoHost) {
		t.Fatalf("mailto: %v", err)
	}
	g.End()
	s, ok := g.Next(context.Background())
	var got []string
	for _, u := range s.URLs {
		got = append(got, u.URL)
	}
	want := []string{h + "/d", "http://shop.a.com/b", h + "/e", h + "/a", h + "/c"}
	if !ok || s.Key != "a.com" || !reflect.DeepEqual(got, want) {
		t.Fatalf("site %q %v, want a.com %v", s.Key, got, want)
	}
	if s2, ok := g.Next(context.Background()); !ok || s2.Key != "b.org" {
		t.Fatalf("second site %+v %v", s2, ok)
	}
	if _, ok := g.Next(context.Background()); ok {
		t.Fatal("a third site")
	}
	if sites, late, ignored := g.Counts(); sites != 2 || late != 0 || ignored != 0 {
		t.Fatalf("counts %d %d %d", sites, late, ignored)
	}
}

// TestGrouperReadiness: a site is handed out when the input ends, after
// lookahead more URLs, or after the input was idle; later URLs join the
// run or are counted as ignored.
func TestGrouperReadiness(t *testing.T) {
	ctx := context.Background()
	quick := func(g *Grouper) (*Site, bool) {
		c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		return g.Next(c)
	}
	g := NewGrouper(ScopeSite, 2, 0)
	g.Add(record.URL{URL: h + "/1"})
	g.Add(record.URL{URL: "http://b.org/"})
	if s, ok := quick(g); ok {
		t.Fatalf("site %s handed out after 1 more URL with lookahead 2", s.Key)
	}
	g.Add(record.URL{URL: h + "/2"})
	s, ok := quick(g)
	if !ok || s.Key != "a.com" || len(s.URLs) != 2 {
		t.Fatalf("after lookahead: %+v %v", s, ok)
	}
	g.Add(record.URL{URL: h + "/3"}) // joins the run in progress
	if late := s.takeLate(); len(late) != 1 || late[0].URL != h+"/3" {
		t.Fatalf("late URLs %+v", late)
	}
	s.finish()
	g.Add(record.URL{URL: h + "/4"}) // after the verdict: ignored
	if _, late, ignored := g.Counts(); late != 1 || ignored != 1 {
		t.Fatalf("late %d ignored %d", late, ignored)
	}

	idle := NewGrouper(ScopeSite, 0, 30*time.Millisecond)
	idle.Add(record.URL{URL: h + "/"})
	start := time.Now()
	if s, ok := idle.Next(ctx); !ok || s.Key != "a.com" || time.Since(start) < 20*time.Millisecond {
		t.Fatalf("idle: %+v %v after %v", s, ok, time.Since(start))
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, ok := idle.Next(cctx); ok {
		t.Fatal("Next after cancel")
	}
}

func TestMetaRank(t *testing.T) {
	for in, want := range map[string]float64{`{"rank":2}`: 2, `{}`: math.Inf(1), ``: math.Inf(1), `{"rank":"x"}`: math.Inf(1), `{"rank":0.5,"q":[1]}`: 0.5} {
		if got := metaRank(record.Meta(in)); got != want {
			t.Errorf("metaRank(%s) = %v, want %v", in, got, want)
		}
	}
}

// TestFailedPages: a page that could not be fetched costs a fetch but
// does not lower its class's H; a class that failed twice with no page
// judged is given up.
func TestFailedPages(t *testing.T) {
	tests := []struct {
		name  string
		pages map[string]fakePage
		order []string
	}{
		{name: "one server error does not sink the product class",
			pages: map[string]fakePage{
				h + "/":    {score: 0.2, links: []string{h + "/p/1", h + "/p/2", h + "/p/3", h + "/p/4", h + "/c/a"}},
				h + "/p/1": {status: 500},
				h + "/p/2": {score: 0.9},
				h + "/p/3": {score: 0.9},
				h + "/p/4": {score: 0.9},
				h + "/c/a": {score: 0.1},
			},
			order: []string{"/", "/p/1", "/p/2", "/p/3", "/p/4"}},
		{name: "a class that only fails is given up",
			pages: map[string]fakePage{
				h + "/":    {score: 0.2, links: []string{h + "/x/1", h + "/x/2", h + "/x/3", h + "/x/4", h + "/x/5", h + "/y/1", h + "/y/2", h + "/y/3"}},
				h + "/x/1": {err: "timeout: no answer"},
				h + "/x/2": {status: 503},
				h + "/x/3": {score: 0.9},
				h + "/y/1": {score: 0.9},
				h + "/y/2": {score: 0.9},
				h + "/y/3": {score: 0.9},
			},
			order: []string{"/", "/x/1", "/x/2", "/y/1", "/y/2", "/y/3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := &fakeSite{pages: tt.pages}
			vd := verifyFake(t, fs, DefaultOptions(), h+"/")
			var got []string
			for _, u := range fs.order() {
				got = append(got, strings.TrimPrefix(u, h))
			}
			if !vd.Relevant || !reflect.DeepEqual(got, tt.order) || vd.PagesFetched != len(tt.order) {
				t.Fatalf("relevant %v after %v (%d counted), want %v; %s", vd.Relevant, got, vd.PagesFetched, tt.order, vd.Reason)
			}
		})
	}
}

// TestTieWithinRounding: a class whose mean equals, up to rounding, the
// prior of classes found on the same page keeps its turn by its size.
func TestTieWithinRounding(t *testing.T) {
	// (0.95 + 0.95) / 2 and 0.1 + 0.2 style sums differ from 0.95 in the last bit.
	f := newFrontier(false, Prior{}, 0.7)
	f.expand("/p/{n}", 0.95)
	f.expand("/p/{n}", 0.95+1e-15)
	f.push(record.URL{URL: h + "/c/a"}, "/c/a", 0.95+2e-15, h+"/")
	f.push(record.URL{URL: h + "/p/3"}, "/p/{n}", 0.95, h+"/")
	f.push(record.URL{URL: h + "/p/4"}, "/p/{n}", 0.95, h+"/")
	if got := f.next(); got.u.URL != h+"/p/3" {
		t.Fatalf("next %s, want the bigger class's %s/p/3", got.u.URL, h)
	}
}

// TestProvenClassFirst: a class whose mean reached the threshold goes
// before classes that only have a prior, even a higher one.
func TestProvenClassFirst(t *testing.T) {
	fs := &fakeSite{pages: map[string]fakePage{
		h + "/p/1": {score: 1, links: []string{h + "/c/x", h + "/d/y", h + "/p/2", h + "/p/3", h + "/p/4"}},
		h + "/p/2": {score: 0.9},
		h + "/p/3": {score: 0.9},
		h + "/p/4": {score: 0.9},
		h + "/c/x": {score: 0},
		h + "/d/y": {score: 0},
	}}
	vd := verifyFake(t, fs, DefaultOptions(), h+"/p/1")
	if got := fs.order(); !vd.Relevant || !reflect.DeepEqual(got, []string{h + "/p/1", h + "/p/2", h + "/p/3"}) {
		t.Fatalf("relevant %v after %v", vd.Relevant, got)
	}
}

// TestPatienceCountsJudgedPages: pages that could not be fetched do not
// use up patience.
func TestPatienceCountsJudgedPages(t *testing.T) {
	fs := &fakeSite{pages: map[string]fakePage{
		h + "/":    {score: 0.1, links: []string{h + "/x/1", h + "/y/1", h + "/z/1", h + "/w/1"}},
		h + "/x/1": {status: 500},
		h + "/y/1": {err: "timeout"},
		h + "/z/1": {score: 0.8},
		h + "/w/1": {score: 0.1},
	}}
	o := DefaultOptions()
	o.Patience, o.NumRelPages = 2, 1
	vd := verifyFake(t, fs, o, h+"/")
	if !vd.Relevant || vd.PagesFetched != 4 {
		t.Fatalf("relevant %v after %v: %s", vd.Relevant, fs.order(), vd.Reason)
	}
}

// TestRedirectToAJudgedPage: an old URL redirecting to a page judged
// already costs its fetch but does not count that page twice, and a
// queued URL reached through a redirect is not fetched again.
func TestRedirectToAJudgedPage(t *testing.T) {
	fs := &fakeSite{pages: map[string]fakePage{
		h + "/":              {score: 0.1, links: []string{h + "/item?id=1", h + "/show.asp?id=1", h + "/show.asp?id=2", h + "/item?id=2"}},
		h + "/item?id=1":     {score: 0.9},
		h + "/item?id=2":     {score: 0.9},
		h + "/show.asp?id=1": {final: h + "/item?id=1"},
		h + "/show.asp?id=2": {final: h + "/item?id=2"},
	}}
	o := DefaultOptions()
	o.Strategy = StrategyBFS
	vd := verifyFake(t, fs, o, h+"/")
	want := []string{h + "/", h + "/item?id=1", h + "/show.asp?id=1", h + "/show.asp?id=2"}
	if got := fs.order(); !reflect.DeepEqual(got, want) || vd.GoodPages != 2 || vd.Relevant || vd.PagesFetched != 4 ||
		vd.Evidence[1].URL != h+"/item?id=2" {
		t.Fatalf("fetched %v, %d good (%+v); want %v and 2 good", got, vd.GoodPages, vd.Evidence, want)
	}
}
