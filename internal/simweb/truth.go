package simweb

import (
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
