package simweb

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// target is what a request for a URL reaches: a page of the table, a page
// computed on demand, a redirect, robots.txt, or nothing.
type target struct {
	s        *site
	pi       int32 // page of the table, or of the item an on-demand page is about; -1 none
	kind     pageKind
	status   int
	location string // redirects
	sid      string // session id of the request
	month    time.Time
	query    string
	robots   bool
	sitemap  bool
	click    int
}

const noPage = -1

// resolve maps a host and a request URI (path and query) to a target.
func (w *Web) resolve(host, requestURI string) target {
	host = strings.ToLower(host)
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	s := w.byHost[host]
	if s == nil {
		return target{pi: noPage, status: 502}
	}
	t := target{s: s, pi: noPage, status: 200}
	if host == s.alias {
		t.status, t.location = 301, s.url(requestURI)
		t.kind = pLegacy
		return t
	}
	path, rawQuery, _ := strings.Cut(requestURI, "?")
	if s.sessions && rawQuery != "" {
		rawQuery, t.sid = stripParam(rawQuery, sessionParam)
	}
	key := path
	if rawQuery != "" {
		key += "?" + rawQuery
	}
	if pi, ok := s.index[key]; ok {
		t.pi, t.kind = pi, s.pages[pi].kind
		return t
	}
	q, _ := url.ParseQuery(rawQuery)
	switch {
	case path == "/robots.txt" && rawQuery == "":
		t.robots = true
		if !s.robots {
			t.status = 404
		}
		return t
	case path == "/sitemap.xml" && s.robots:
		t.sitemap = true
		return t
	case s.kind == KindAds && path == "/click":
		c, err := strconv.Atoi(q.Get("c"))
		if err != nil || c < 0 || c >= adCampaigns {
			break
		}
		dst := w.adTarget(s, c)
		if dst == nil {
			break
		}
		items := dst.items
		pi := int32(0)
		if len(items) > 0 {
			pi = items[hashOf(w.cfg.Seed, s.host, "click", strconv.Itoa(c))%uint64(len(items))]
		}
		t.kind, t.status, t.click = pClick, 302, c
		t.location = dst.url(w.path(dst, dst.pages[pi]))
		return t
	case (s.kind == KindBookstore || s.kind == KindShop) && path == "/cart.html":
		t.kind = pCart
		if add := q.Get("add"); add != "" {
			t.pi = s.itemByID(add)
			if t.pi == noPage {
				break
			}
		}
		return t
	case path == "/search" && len(s.searchQ) > 0:
		t.kind, t.query = pSearch, q.Get("q")
		return t
	case strings.HasPrefix(path, "/print/") && strings.HasSuffix(path, ".html") && rawQuery == "":
		t.pi = s.itemByID(strings.TrimSuffix(strings.TrimPrefix(path, "/print/"), ".html"))
		if t.pi == noPage || s.pages[t.pi].kind != pArticle {
			break
		}
		t.kind = pPrint
		return t
	case s.calendar && path == "/calendar/":
		m, err := time.Parse("2006-01", q.Get("month"))
		if err != nil || len(q) != 1 {
			break
		}
		t.kind, t.month = pCalendar, m
		return t
	case s.legacy && path == "/show.asp":
		pi := s.itemByID(q.Get("id"))
		if pi == noPage {
			break
		}
		t.kind, t.pi, t.status = pLegacy, pi, 301
		t.location = s.url(legacyHopPath(s.itemID(s.pages[pi].num)))
		return t
	case s.legacy && strings.HasPrefix(path, "/go/") && rawQuery == "":
		pi := s.itemByID(strings.TrimPrefix(path, "/go/"))
		if pi == noPage {
			break
		}
		t.kind, t.pi, t.status = pLegacy, pi, 302
		t.location = s.url(w.path(s, s.pages[pi]))
		return t
	}
	t.status, t.kind, t.pi = 404, pStatic, noPage
	return t
}

// itemByID finds the item whose URL number is id.
func (s *site) itemByID(id string) int32 {
	n, err := strconv.Atoi(id)
	if err != nil || strconv.Itoa(n) != id {
		return noPage
	}
	num := n - s.idBase
	if num < 0 || num >= len(s.items) {
		return noPage
	}
	return s.items[num]
}

// stripParam removes every name=value pair of the query and returns the
// rest and the last value.
func stripParam(rawQuery, name string) (rest, value string) {
	parts := strings.Split(rawQuery, "&")
	kept := parts[:0]
	for _, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		if k == name {
			value = v
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, "&"), value
}

// nextSession is the session id the links of a page carry: a function of
// the request's own session id and path, so every click mints a new one
// and the URL space never ends.
func (w *Web) nextSession(s *site, sid, path string) string {
	return strconv.FormatUint(hashOf(w.cfg.Seed, s.host, "sid", sid, path), 16)
}

// robotsTxt is the robots.txt of a site.
func (w *Web) robotsTxt(s *site) string {
	var b strings.Builder
	b.WriteString("# robots.txt for " + s.host + " (simweb simulated site)\n")
	b.WriteString("User-agent: *\n")
	for _, d := range s.disallow() {
		b.WriteString("Disallow: " + d + "\n")
	}
	if s.crawlDelay != "" {
		b.WriteString("Crawl-delay: " + s.crawlDelay + "\n")
	}
	b.WriteString("\nUser-agent: BadBot\nDisallow: /\n\nSitemap: http://" + s.host + "/sitemap.xml\n")
	return b.String()
}

// disallow lists the path prefixes robots.txt forbids to every agent.
func (s *site) disallow() []string {
	if !s.robots {
		return nil
	}
	d := []string{"/admin/", "/search", "/print/"}
	switch s.kind {
	case KindBookstore, KindShop:
		d = append(d, "/cart.html")
	case KindAuthority, KindGovPortal:
		d = append(d, "/calendar/")
	}
	return d
}

func (s *site) disallowed(path string) bool {
	for _, d := range s.disallow() {
		if strings.HasPrefix(path, d) {
			return true
		}
	}
	return false
}
