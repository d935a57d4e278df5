package simweb

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// CalendarWindow is how many months either side of the epoch WriteTruth
// lists for each calendar trap (the trap itself never ends; Page answers
// for every month).
const CalendarWindow = 12

// URLs calls fn with every URL of the finite web, site by site: the page
// table, then print versions, cart links, legacy and alias redirects, ad
// clicks, the linked search pages and calendar months within
// CalendarWindow. Session-id variants are infinite and not listed.
func (w *Web) URLs(fn func(url string) error) error {
	for _, s := range w.sites {
		if s.kind == KindAds {
			if err := fn(s.homeURL()); err != nil {
				return err
			}
			for c := 0; c < adCampaigns; c++ {
				if err := fn(s.url(clickPath(c))); err != nil {
					return err
				}
			}
			continue
		}
		for _, p := range s.pages {
			if err := fn(s.url(w.path(s, p))); err != nil {
				return err
			}
		}
		for _, pi := range s.items {
			p := s.pages[pi]
			id := s.itemID(p.num)
			var extra []string
			switch p.kind {
			case pArticle:
				extra = append(extra, printPath(id))
			case pProduct:
				extra = append(extra, cartPath(id))
			}
			if s.legacy {
				extra = append(extra, legacyPath(id), legacyHopPath(id))
			}
			for _, e := range extra {
				if err := fn(s.url(e)); err != nil {
					return err
				}
			}
		}
		var extra []string
		if s.alias != "" {
			extra = append(extra, "http://"+s.alias+"/")
		}
		if s.kind == KindBookstore || s.kind == KindShop {
			extra = append(extra, "/cart.html")
		}
		for _, q := range s.searchQ {
			extra = append(extra, searchPath(q))
		}
		if s.calendar {
			for m := -CalendarWindow; m <= CalendarWindow; m++ {
				extra = append(extra, calendarPath(w.epoch.AddDate(0, m, 0).Format("2006-01")))
			}
		}
		for _, e := range extra {
			if e[0] == '/' {
				e = s.url(e)
			}
			if err := fn(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteTruth writes the truth of every URL of the finite web (see URLs)
// as JSON Lines, one PageTruth per line.
func (w *Web) WriteTruth(out io.Writer) error {
	bw := bufio.NewWriterSize(out, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err := w.URLs(func(u string) error {
		pt, ok := w.Page(u)
		if !ok {
			return fmt.Errorf("simweb: no truth for %s", u)
		}
		return enc.Encode(pt)
	})
	if err != nil {
		return fmt.Errorf("write truth: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write truth: %w", err)
	}
	return nil
}

// WriteSites writes the truth of every site as JSON Lines.
func (w *Web) WriteSites(out io.Writer) error {
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, st := range w.Sites() {
		if err := enc.Encode(st); err != nil {
			return fmt.Errorf("write sites: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write sites: %w", err)
	}
	return nil
}

// Seeds returns a few realistic entry points for a crawl on topic: the
// homes of three news portals, the topic channel of one of them, and the
// home of the highest-ranked relevant site (never a hidden or faulty one):
// entry points a user would pick, not the relevant pages themselves.
func (w *Web) Seeds(topic string) ([]string, error) {
	t := TopicIndex(topic)
	if t < 0 {
		return nil, fmt.Errorf("unknown topic %q (known: %v)", topic, Topics)
	}
	var out []string
	portals := 0
	calm := func(s *site) bool { return !s.down && !s.slow && !s.rateLimited && !s.flaky && s.errPct == 0 }
	for _, s := range w.sites {
		if s.kind == KindPortal && calm(s) && portals < 3 {
			out = append(out, s.homeURL())
			if portals == 0 {
				for _, c := range s.cols {
					if c.topic == t && !c.mixed {
						out = append(out, s.url(w.path(s, s.pages[c.listFirst])))
						break
					}
				}
			}
			portals++
		}
	}
	best := []*site{}
	rankOrder := map[string]int{"national": 0, "province": 1, "city": 2, "county": 3, "": 4}
	for _, s := range w.sites {
		if s.topic != t || s.tunnel > 0 || !calm(s) {
			continue
		}
		switch s.kind {
		case KindAuthority, KindContent, KindBookstore:
			best = append(best, s)
		}
	}
	for i := 1; i < len(best); i++ { // stable insertion sort by rank
		for j := i; j > 0 && rankOrder[best[j].rank] < rankOrder[best[j-1].rank]; j-- {
			best[j], best[j-1] = best[j-1], best[j]
		}
	}
	for i := 0; i < len(best) && i < 1; i++ {
		out = append(out, best[i].homeURL())
	}
	return out, nil
}

// Stats counts the pages of the finite web by topic relevance.
type Stats struct {
	Sites    int            `json:"sites"`
	Pages    int            `json:"pages"`
	Relevant map[string]int `json:"relevant"`
}

// Stats counts sites, table pages and relevant table pages per topic.
func (w *Web) Stats() Stats {
	st := Stats{Sites: len(w.sites), Relevant: map[string]int{}}
	for _, s := range w.sites {
		st.Pages += len(s.pages)
		for _, p := range s.pages {
			if p.topic >= 0 && p.kind <= pThread {
				st.Relevant[Topics[p.topic]]++
			}
		}
	}
	return st
}
