package siteverify

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// sitesOf picks up to n sites of a kind that answer (not down), in the
// web's order.
func sitesOf(w *simweb.Web, kind string, n int) []simweb.SiteTruth {
	var out []simweb.SiteTruth
	for _, st := range w.Sites() {
		if st.Kind != kind || len(out) == n {
			continue
		}
		down := false
		for _, tr := range st.Traits {
			down = down || tr == "down"
		}
		if !down {
			out = append(out, st)
		}
	}
	return out
}

// verifyAll verifies the homes of sites, several at once.
func verifyAll(t *testing.T, v *Verifier, sites []simweb.SiteTruth) []record.Verdict {
	t.Helper()
	out := make([]record.Verdict, len(sites))
	var wg sync.WaitGroup
	for i, st := range sites {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = verifyHome(context.Background(), v, st.Home)
		}()
	}
	wg.Wait()
	return out
}

// TestBookstoresAndHardNegatives: bookstores are found relevant with
// three good product pages as evidence; shops of other goods (prices,
// carts, no books), forums and portals are not.
func TestBookstoresAndHardNegatives(t *testing.T) {
	tw := newTestWeb(t)
	v := newVerifier(t, tw.f, newJudge(t, "rules"), DefaultOptions())
	stores := sitesOf(tw.web, "bookstore", 4)
	negatives := append(sitesOf(tw.web, "shop", 4), sitesOf(tw.web, "forum", 1)...)
	negatives = append(negatives, sitesOf(tw.web, "portal", 1)...)
	if len(stores) < 4 || len(negatives) < 5 {
		t.Fatalf("test web too small: %d bookstores, %d negatives", len(stores), len(negatives))
	}
	all := append(append([]simweb.SiteTruth(nil), stores...), negatives...)
	for i, vd := range verifyAll(t, v, all) {
		st := all[i]
		want := st.Relevance["books"] > 0
		if vd.Relevant != want {
			t.Errorf("%s (%s): relevant %v, truth %v; %s; evidence %+v", st.Site, st.Kind, vd.Relevant, want, vd.Reason, vd.Evidence)
			continue
		}
		if vd.Site != st.Site || vd.Error != "" || vd.PagesFetched < 1 || len(vd.Classes) == 0 {
			t.Errorf("%s: verdict %+v", st.Site, vd)
		}
		if want {
			if vd.GoodPages != 3 || len(vd.Evidence) != 3 || vd.BestScore < 0.7 {
				t.Errorf("%s: good %d, evidence %+v, best %v", st.Site, vd.GoodPages, vd.Evidence, vd.BestScore)
			}
			for _, e := range vd.Evidence {
				pt, ok := tw.web.Page(e.URL)
				if !ok || pt.Kind != "product" || !pt.Relevant("books") || e.Score < 0.7 {
					t.Errorf("%s: evidence %s is %+v (score %v)", st.Site, e.URL, pt, e.Score)
				}
			}
		} else if vd.GoodPages >= 3 {
			t.Errorf("%s: %d good pages on a negative", st.Site, vd.GoodPages)
		}
	}
}

// TestHeuristicCheaperThanBFS runs both strategies with the paper's
// settings (no patience) on the same bookstores: both find them, the
// heuristic with fewer pages.
func TestHeuristicCheaperThanBFS(t *testing.T) {
	tw := newTestWeb(t)
	j := newJudge(t, "rules")
	stores := sitesOf(tw.web, "bookstore", 5)
	pages := map[string]int{}
	for _, strat := range Strategies {
		o := DefaultOptions()
		o.Strategy, o.Patience = strat, 0
		for i, vd := range verifyAll(t, newVerifier(t, tw.f, j, o), stores) {
			if !vd.Relevant {
				t.Errorf("%s: %s not relevant: %s", strat, stores[i].Site, vd.Reason)
			}
			pages[strat] += vd.PagesFetched
		}
	}
	if pages[StrategyHeuristic] >= pages[StrategyBFS] {
		t.Fatalf("heuristic fetched %d pages, bfs %d", pages[StrategyHeuristic], pages[StrategyBFS])
	}
	t.Logf("pages fetched for %d bookstores: %v", len(stores), pages)
}

// TestSeveralURLsOneSite: a site found by several search results is
// verified once, from its best-ranked URL, with the others queued.
func TestSeveralURLsOneSite(t *testing.T) {
	tw := newTestWeb(t)
	store := sitesOf(tw.web, "bookstore", 1)[0]
	shop := sitesOf(tw.web, "shop", 1)[0]
	var pages []string
	var mu sync.Mutex
	o := DefaultOptions()
	o.OnPage = func(site string, p PageResult) {
		mu.Lock()
		defer mu.Unlock()
		pages = append(pages, p.Page.URL)
	}
	v := newVerifier(t, tw.f, newJudge(t, "rules"), o)
	g := NewGrouper(ScopeSite, 0, 0)
	home := strings.TrimSuffix(store.Home, "/")
	inputs := []record.URL{
		{URL: home + "/about.html", Meta: record.Meta(`{"rank":5}`)},
		{URL: shop.Home, Meta: record.Meta(`{"rank":1}`)},
		{URL: home + "/", Meta: record.Meta(`{"rank":2,"q":"x"}`)},
		{URL: home + "/no-such-page.html", Meta: record.Meta(`{"rank":9}`)},
	}
	for _, u := range inputs {
		if err := g.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	g.End()
	var verdicts []record.Verdict
	for {
		s, ok := g.Next(context.Background())
		if !ok {
			break
		}
		verdicts = append(verdicts, v.Verify(context.Background(), s))
	}
	if len(verdicts) != 2 {
		t.Fatalf("%d verdicts for 2 sites: %+v", len(verdicts), verdicts)
	}
	vd := verdicts[0]
	if vd.Site != store.Site || !vd.Relevant || string(vd.Meta) != `{"rank":2,"q":"x"}` {
		t.Fatalf("first verdict %+v; want %s relevant with the meta of its best-ranked URL", vd, store.Site)
	}
	if verdicts[1].Site != shop.Site || verdicts[1].Relevant {
		t.Fatalf("second verdict %+v", verdicts[1])
	}
	if pages[0] != home+"/" {
		t.Fatalf("first page fetched %s, want p0 %s/", pages[0], home)
	}
	seen := map[string]bool{}
	for _, p := range pages {
		if seen[p] {
			t.Fatalf("%s fetched twice", p)
		}
		seen[p] = true
	}
}

// TestCancelOnSimweb: cancelling mid-site through the real fetcher ends
// the run at once with a canceled verdict and nothing more fetched.
func TestCancelOnSimweb(t *testing.T) {
	tw := newTestWeb(t)
	store := sitesOf(tw.web, "bookstore", 1)[0]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	fetched := 0
	o := DefaultOptions()
	o.OnPage = func(string, PageResult) {
		mu.Lock()
		defer mu.Unlock()
		fetched++
		cancel() // after the first page
	}
	vd := verifyHome(ctx, newVerifier(t, tw.f, newJudge(t, "rules"), o), store.Home)
	if vd.Error != ErrCanceled.Error() || vd.Relevant || vd.PagesFetched != 1 || fetched != 1 {
		t.Fatalf("verdict %+v after %d pages", vd, fetched)
	}
}
