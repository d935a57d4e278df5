package simweb

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Paths: every page of the table has one canonical path, a function of
// the site's kind, language and URL style and of the page's number.

var tunnelPaths = map[int32]string{2: "/zwgk/bmdh/", 3: "/zwgk/bmdh/bmwz.html", 4: "/zwgk/bmdh/xsdw.html"}

// itemID is the number shown in an item's URL.
func (s *site) itemID(num int32) int { return s.idBase + int(num) }

// itemTime is an item's publication time: items are spread back in time
// from the epoch, newest last.
func (w *Web) itemTime(s *site, num int32) time.Time {
	back := time.Duration(int32(len(s.items))-num) * time.Duration(s.spacingH) * time.Hour
	jitter := time.Duration(hashOf(w.cfg.Seed, s.host, "t", strconv.Itoa(int(num)))%600) * time.Minute
	return w.epoch.Add(-back + jitter)
}

func (w *Web) path(s *site, p page) string {
	switch p.kind {
	case pHome:
		return "/"
	case pStatic:
		return s.statics[p.num].path
	case pTunnel:
		return tunnelPaths[p.num]
	case pFarm:
		return fmt.Sprintf("/p/%d.html", p.num)
	case pList:
		return s.listPath(s.cols[p.col].slug, int(p.col), int(p.num))
	}
	id := s.itemID(p.num)
	t := w.itemTime(s, p.num)
	slug := s.cols[p.col].slug
	switch s.kind {
	case KindBookstore:
		if s.style == 0 {
			return fmt.Sprintf("/product/%d.html", id)
		}
		return fmt.Sprintf("/item.php?id=%d", id)
	case KindShop:
		if s.style == 0 {
			return fmt.Sprintf("/goods/%d.html", id)
		}
		return fmt.Sprintf("/item?id=%d", id)
	case KindForum:
		return fmt.Sprintf("/thread-%d-1-1.html", id)
	case KindPortal:
		if s.lang == langEN {
			return fmt.Sprintf("/%s/%s/story-%d.html", slug, t.Format("2006/01/02"), id)
		}
		return fmt.Sprintf("/%s/%s/%d.shtml", slug, t.Format("20060102"), id)
	}
	if s.lang == langEN {
		return fmt.Sprintf("/%s/%s/%d.html", slug, t.Format("2006/01"), id)
	}
	if s.style == 1 {
		return fmt.Sprintf("/%s/%s/%d.shtml", slug, t.Format("20060102"), id)
	}
	return fmt.Sprintf("/%s/%s/t%s_%d.html", slug, t.Format("200601"), t.Format("20060102"), id)
}

// listPath is the path of list page n (0-based) of a column.
func (s *site) listPath(slug string, col, n int) string {
	switch s.kind {
	case KindBookstore:
		if s.style == 0 {
			if n == 0 {
				return "/category/" + slug + ".html"
			}
			return fmt.Sprintf("/category/%s.html?page=%d", slug, n+1)
		}
		if n == 0 {
			return "/list.php?cat=" + slug
		}
		return fmt.Sprintf("/list.php?cat=%s&page=%d", slug, n+1)
	case KindShop:
		if s.style == 0 {
			if n == 0 {
				return "/c/" + slug + "/"
			}
			return fmt.Sprintf("/c/%s/%d/", slug, n+1)
		}
		if n == 0 {
			return "/list?cat=" + slug
		}
		return fmt.Sprintf("/list?cat=%s&p=%d", slug, n+1)
	case KindForum:
		return fmt.Sprintf("/forum-%d-%d.html", col+1, n+1)
	}
	if n == 0 {
		return "/" + slug + "/"
	}
	switch {
	case s.kind == KindPortal && s.lang == langEN:
		return fmt.Sprintf("/%s/?page=%d", slug, n+1)
	case s.kind == KindPortal:
		return fmt.Sprintf("/%s/list_%d.shtml", slug, n)
	case s.lang == langEN:
		return fmt.Sprintf("/%s/page/%d/", slug, n+1)
	}
	return fmt.Sprintf("/%s/index_%d.html", slug, n)
}

// On-demand paths.

func cartPath(id int) string       { return fmt.Sprintf("/cart.html?add=%d", id) }
func printPath(id int) string      { return fmt.Sprintf("/print/%d.html", id) }
func legacyPath(id int) string     { return fmt.Sprintf("/show.asp?id=%d", id) }
func legacyHopPath(id int) string  { return fmt.Sprintf("/go/%d", id) }
func clickPath(c int) string       { return fmt.Sprintf("/click?c=%d", c) }
func calendarPath(m string) string { return "/calendar/?month=" + m }
func searchPath(q string) string   { return "/search?q=" + url.QueryEscape(q) }
func withSession(p, sid string) string {
	if strings.Contains(p, "?") {
		return p + "&sid=" + sid
	}
	return p + "?sid=" + sid
}

// adCampaigns is the number of click URLs of each ad server.
const adCampaigns = 40

// sessionParam is the query parameter that carries forum session ids.
const sessionParam = "sid"
