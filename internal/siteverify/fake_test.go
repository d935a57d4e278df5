package siteverify

import (
	"context"
	"sync"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// fakePage is one page of a fakeSite: its score and links, or a failure.
type fakePage struct {
	score  float64
	links  []string
	status int    // 0: 200
	err    string // fetch error
	final  string // redirect target
}

// fakeSite is a Fetcher and a Judge over a table of pages, recording
// the order of the fetches.
type fakeSite struct {
	pages map[string]fakePage
	// block, when set, makes Fetch wait for ctx after this many fetches.
	block int

	mu      sync.Mutex
	fetched []string
}

func (f *fakeSite) Fetch(ctx context.Context, u record.URL) record.Page {
	f.mu.Lock()
	f.fetched = append(f.fetched, u.URL)
	n := len(f.fetched)
	f.mu.Unlock()
	if f.block > 0 && n > f.block {
		<-ctx.Done()
		return record.Page{URL: u.URL, Error: "canceled"}
	}
	fp, ok := f.pages[u.URL]
	p := record.Page{URL: u.URL, Status: 200, HTML: "<p>x</p>", Lineage: u.Lineage, Meta: u.Meta}
	switch {
	case !ok:
		p.Status, p.Error, p.HTML = 404, "http 404", ""
	case fp.err != "":
		p.Status, p.Error, p.HTML = 0, fp.err, ""
	case fp.status != 0:
		p.Status = fp.status
	}
	if fp.final != "" {
		p.FinalURL = fp.final
	}
	return p
}

func (f *fakeSite) Judge(p record.Page) Judgement {
	key := p.URL
	if p.FinalURL != "" {
		key = p.FinalURL
		if _, ok := f.pages[key]; !ok {
			key = p.URL
		}
	}
	fp := f.pages[key]
	j := Judgement{Score: fp.score}
	for _, l := range fp.links {
		j.Links = append(j.Links, record.Link{URL: l})
	}
	return j
}

func (f *fakeSite) order() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.fetched...)
}
