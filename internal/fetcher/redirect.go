package fetcher

import (
	"net/http"
	"net/url"
)

// isRedirect tells the statuses whose Location is followed.
func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// follow aims the item at a redirect target, or says why not: a loop, too
// many hops, a target that is not http(s). Each hop is recorded.
//
// A return to a URL already requested in the chain is a loop, unless a
// response since that visit set a cookie (a "checking your browser" hop
// that sends the client back) — and then only the first time.
func (f *Fetcher) follow(it *item, next url.URL) error {
	next.Fragment, next.RawFragment = "", ""
	u := next.String()
	it.hops = append(it.hops, u)
	if next.Scheme != "http" && next.Scheme != "https" {
		return errRedirectScheme
	}
	t, err := parseTarget(u)
	if err != nil {
		return errRedirectScheme
	}
	visited := append([]string{it.first}, it.hops[:len(it.hops)-1]...)
	seen := 0
	for k, v := range visited {
		if v != u {
			continue
		}
		seen++
		if seen > 1 || !f.cfg.Cookies || !anyTrue(it.setCookie[k:]) {
			return errRedirectLoop
		}
	}
	if len(it.hops) > f.cfg.MaxRedirects {
		return errTooManyRedirects
	}
	it.target = t
	it.attempts = 0
	return nil
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}
