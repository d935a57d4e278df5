package simweb

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
)

// PageTruth is the ground truth of one URL.
//
// Relevance holds every topic of Topics with 1 or 0: a page is relevant
// to topic t when it answers 200 with content about t — a home, list,
// article, product, thread or print page whose topic is t — and is not a
// trap. Redirects carry the truth of the page they end at (FinalURL).
type PageTruth struct {
	URL      string `json:"url"`
	Site     string `json:"site"` // registrable domain
	Host     string `json:"host"`
	SiteKind string `json:"site_kind"`
	// Kind is the page kind: home, list, article, product, thread, static,
	// farm, tunnel, cart, search, print, calendar, redirect, robots,
	// sitemap, error.
	Kind      string             `json:"kind"`
	Topic     string             `json:"topic,omitempty"`
	Lang      string             `json:"lang"`
	Status    int                `json:"status"`
	Relevance map[string]float64 `json:"relevance"`
	// Location is the target of a redirect, FinalURL where the chain ends.
	Location string `json:"location,omitempty"`
	FinalURL string `json:"final_url,omitempty"`
	// Trap is "calendar" or "session-id" for trap pages (never relevant).
	Trap string `json:"trap,omitempty"`
	// Canonical is the page a duplicate (session id, print version) copies.
	Canonical string `json:"canonical,omitempty"`
	// Disallowed says robots.txt forbids the URL to every agent.
	Disallowed bool `json:"disallowed,omitempty"`
	// Tunnel is the length of the tunnel that leads to the page's site
	// (hidden sites only).
	Tunnel int `json:"tunnel,omitempty"`
}

// Relevant reports whether the page is relevant to the named topic.
func (p PageTruth) Relevant(topic string) bool { return p.Relevance[topic] > 0 }

// SiteTruth is the ground truth of one site.
//
// Relevance of a site: 1 for the topic a site is devoted to (an online
// bookstore for books, a forestry authority or forestry magazine for
// forestry, a sports-goods shop for sports, a topical forum for its
// topic), 0 otherwise; portals, general government portals, link farms and
// ad servers are relevant to nothing.
type SiteTruth struct {
	Site      string             `json:"site"`
	Host      string             `json:"host"`
	Alias     string             `json:"alias,omitempty"`
	Name      string             `json:"name"`
	Kind      string             `json:"kind"`
	Topic     string             `json:"topic,omitempty"`
	Lang      string             `json:"lang"`
	Rank      string             `json:"rank,omitempty"`
	Charset   string             `json:"charset"`
	Declared  string             `json:"charset_declared,omitempty"` // header, meta, header+meta, none
	Pages     int                `json:"pages"`
	Relevance map[string]float64 `json:"relevance"`
	// Traits lists the site's behaviours: slow, down, flaky, rate-limited,
	// 5xx, robots, crawl-delay, calendar, session-ids, legacy-redirects,
	// alias-redirect.
	Traits []string `json:"traits,omitempty"`
	// Tunnel is the number of irrelevant pages between the nearest
	// relevant page and this hidden site (0: not hidden).
	Tunnel int    `json:"tunnel,omitempty"`
	Gate   string `json:"gate,omitempty"` // the government portal the tunnel runs through
	Home   string `json:"home"`
}

func relevanceOf(topic int) map[string]float64 {
	m := make(map[string]float64, len(Topics))
	for i, t := range Topics {
		if i == topic {
			m[t] = 1
		} else {
			m[t] = 0
		}
	}
	return m
}

func topicName(t int) string {
	if t < 0 {
		return ""
	}
	return Topics[t]
}

// Page returns the truth of any URL the web answers (ok=false for hosts
// it does not serve). URLs that answer 404 are reported with Status 404.
func (w *Web) Page(rawURL string) (PageTruth, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return PageTruth{}, false
	}
	t := w.resolve(u.Host, u.RequestURI())
	if t.s == nil {
		return PageTruth{}, false
	}
	return w.truthOf(rawURL, u.Path, t, 0), true
}

func (w *Web) truthOf(rawURL, path string, t target, hops int) PageTruth {
	s := t.s
	pt := PageTruth{URL: rawURL, Site: s.key, Host: s.host, SiteKind: s.kind.String(), Lang: langNames[s.lang],
		Status: t.status, Relevance: relevanceOf(noTopic), Tunnel: s.tunnel}
	pt.Disallowed = s.disallowed(path)
	if status := w.staticFault(s, t, path); status != 0 {
		pt.Status, pt.Kind = status, "error"
		return pt
	}
	switch {
	case t.robots:
		pt.Kind = "robots"
		return pt
	case t.sitemap:
		pt.Kind = "sitemap"
		return pt
	case t.status == 404:
		pt.Kind = "error"
		return pt
	case t.location != "":
		pt.Kind, pt.Location = "redirect", t.location
		if hops < 10 {
			if next, ok := w.Page(t.location); ok {
				pt.FinalURL = next.URL
				if next.FinalURL != "" {
					pt.FinalURL = next.FinalURL
				}
				pt.Topic, pt.Relevance = next.Topic, next.Relevance
			}
		}
		return pt
	}
	pt.Kind = pageKindNames[t.kind]
	topic := noTopic
	if t.pi >= 0 {
		topic = int(s.pages[t.pi].topic)
	}
	if s.kind == KindAds {
		pt.Kind = "home"
		return pt
	}
	pt.Topic = topicName(topic)
	switch t.kind {
	case pHome, pList, pArticle, pProduct, pThread:
		if t.sid != "" {
			pt.Trap = "session-id"
			pt.Canonical = s.url(w.path(s, s.pages[t.pi]))
			return pt
		}
		pt.Relevance = relevanceOf(topic)
	case pPrint:
		pt.Canonical = s.url(w.path(s, s.pages[t.pi]))
		pt.Relevance = relevanceOf(topic)
	case pCalendar:
		pt.Trap, pt.Topic = "calendar", ""
	case pStatic, pFarm, pTunnel, pCart, pSearch:
		pt.Topic = ""
		if t.sid != "" {
			pt.Trap = "session-id"
		}
	}
	return pt
}

// Sites returns the truth of every site, in a stable order.
func (w *Web) Sites() []SiteTruth {
	out := make([]SiteTruth, 0, len(w.sites))
	for _, s := range w.sites {
		out = append(out, w.siteTruth(s))
	}
	return out
}

func (w *Web) siteTruth(s *site) SiteTruth {
	st := SiteTruth{Site: s.key, Host: s.host, Alias: s.alias, Name: s.name, Kind: s.kind.String(), Topic: topicName(s.topic),
		Lang: langNames[s.lang], Rank: s.rank, Charset: "utf-8", Pages: len(s.pages), Tunnel: s.tunnel, Home: s.homeURL()}
	rel := noTopic
	switch s.kind {
	case KindAuthority, KindBookstore, KindShop, KindContent, KindForum:
		rel = s.topic
	}
	st.Relevance = relevanceOf(rel)
	if s.gbk {
		st.Charset = "gbk"
		st.Declared = map[int]string{0: "none", declHeader: "header", declMeta: "meta", declHeader | declMeta: "header+meta"}[s.decl]
	}
	if s.gate >= 0 {
		st.Gate = w.sites[s.gate].host
	}
	add := func(ok bool, name string) {
		if ok {
			st.Traits = append(st.Traits, name)
		}
	}
	add(s.slow, "slow")
	add(s.down, "down")
	add(s.flaky, "flaky")
	add(s.rateLimited, "rate-limited")
	add(s.errPct > 0, "5xx")
	add(s.robots, "robots")
	add(s.crawlDelay != "", "crawl-delay")
	add(s.calendar, "calendar")
	add(s.sessions, "session-ids")
	add(s.legacy, "legacy-redirects")
	add(s.alias != "", "alias-redirect")
	add(s.gzip, "gzip")
	return st
}

// Site returns the truth of the site that serves host.
func (w *Web) Site(host string) (SiteTruth, bool) {
	s := w.byHost[hostOnly(host)]
	if s == nil {
		return SiteTruth{}, false
	}
	return w.siteTruth(s), true
}

func hostOnly(h string) string {
	for i := 0; i < len(h); i++ {
		if h[i] == ':' {
			return h[:i]
		}
	}
	return h
}

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
// homes of one or two relevant sites of high rank (never hidden ones).
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
	for i := 0; i < len(best) && i < 2; i++ {
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
