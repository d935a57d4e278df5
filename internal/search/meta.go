package search

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// ErrNothingAnswered says every request of a meta-search failed.
var ErrNothingAnswered = errors.New("no search request succeeded")

// Options drive a meta-search.
type Options struct {
	Queries []string
	// Pages is the number of result pages asked per query (at least 1).
	Pages int
	// Delay separates two requests to one engine.
	Delay time.Duration
	// OnError hears of each failed request; the search goes on.
	OnError func(engine, query string, page int, err error)
}

// Found is one URL of the union of all results.
type Found struct {
	URL     string
	Site    string
	Title   string
	Snippet string
	// Rank is the best rank the URL had in any query on any engine.
	Rank int
	// Queries and Engines found the URL, in the order they did.
	Queries []string
	Engines []string

	order int
}

// MetaSearch sends every query to every engine, page by page, and returns
// the union of the results, one per normalised URL, best rank first.
// Engines are asked concurrently, each one request at a time with
// o.Delay in between. It fails only when no request at all succeeded.
func MetaSearch(ctx context.Context, engines []Engine, o Options) ([]Found, error) {
	if o.Pages < 1 {
		o.Pages = 1
	}
	var (
		mu        sync.Mutex
		byURL     = map[string]*Found{}
		succeeded int
		failed    int
		lastErr   error
	)
	add := func(engine, query string, rs []Result) {
		mu.Lock()
		defer mu.Unlock()
		succeeded++
		for _, r := range rs {
			u, err := urlx.Normalize(r.URL)
			if err != nil {
				continue
			}
			f := byURL[u]
			if f == nil {
				f = &Found{URL: u, Site: urlx.SiteKey(u), Title: r.Title, Snippet: r.Snippet, Rank: r.Rank, order: len(byURL)}
				byURL[u] = f
			}
			if r.Rank < f.Rank {
				f.Rank = r.Rank
			}
			if f.Title == "" {
				f.Title = r.Title
			}
			if f.Snippet == "" {
				f.Snippet = r.Snippet
			}
			f.Queries = appendOnce(f.Queries, query)
			f.Engines = appendOnce(f.Engines, engine)
		}
	}
	fail := func(engine, query string, page int, err error) {
		mu.Lock()
		failed++
		lastErr = err
		mu.Unlock()
		if o.OnError != nil {
			o.OnError(engine, query, page, err)
		}
	}
	var wg sync.WaitGroup
	for _, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runEngine(ctx, e, o, add, fail)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if succeeded == 0 && failed > 0 {
		return nil, fmt.Errorf("%w (%d failed; last: %w)", ErrNothingAnswered, failed, lastErr)
	}
	out := make([]Found, 0, len(byURL))
	for _, f := range byURL {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		if len(a.Queries) != len(b.Queries) {
			return len(a.Queries) > len(b.Queries)
		}
		return a.order < b.order
	})
	return out, nil
}

// runEngine asks one engine every query, page after page, politely.
func runEngine(ctx context.Context, e Engine, o Options, add func(string, string, []Result), fail func(string, string, int, error)) {
	first := true
	wait := func() bool {
		if first {
			first = false
			return true
		}
		t := time.NewTimer(o.Delay)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		}
	}
	for _, q := range o.Queries {
		rank := 0
		for page := 1; page <= o.Pages; page++ {
			if !wait() {
				return
			}
			rs, err := e.Search(ctx, q, page)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				fail(e.Name(), q, page, err)
				if errors.Is(err, ErrBlocked) {
					return // asking again only digs the hole deeper
				}
				break
			}
			for i := range rs {
				rank++
				rs[i].Rank = rank
			}
			add(e.Name(), q, rs)
			if len(rs) == 0 {
				break // no more pages
			}
		}
	}
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
