package fetcher

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"sync"

	"golang.org/x/net/publicsuffix"
)

// maxCookieSites is how many sites may hold cookies before the jar starts
// afresh: a crawl over millions of sites must not keep all their session
// cookies for the whole run. Losing them is harmless for a crawler; a site
// that wants one sets it again.
const maxCookieSites = 10000

// boundedJar is a cookie jar, scoped by the public suffix list, that is
// emptied when too many sites have set cookies.
type boundedJar struct {
	mu    sync.Mutex
	jar   *cookiejar.Jar
	sites map[string]struct{}
}

var _ http.CookieJar = (*boundedJar)(nil)

func newBoundedJar() *boundedJar {
	j := &boundedJar{}
	j.reset()
	return j
}

func (j *boundedJar) reset() {
	jar, _ := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List}) // never fails
	j.jar, j.sites = jar, map[string]struct{}{}
}

// SetCookies implements http.CookieJar.
func (j *boundedJar) SetCookies(u *url.URL, cookies []*http.Cookie) {
	if len(cookies) == 0 {
		return
	}
	site, err := publicsuffix.EffectiveTLDPlusOne(u.Hostname())
	if err != nil {
		site = u.Hostname()
	}
	j.mu.Lock()
	if _, ok := j.sites[site]; !ok {
		if len(j.sites) >= maxCookieSites {
			j.reset()
		}
		j.sites[site] = struct{}{}
	}
	jar := j.jar
	j.mu.Unlock()
	jar.SetCookies(u, cookies)
}

// Cookies implements http.CookieJar.
func (j *boundedJar) Cookies(u *url.URL) []*http.Cookie {
	j.mu.Lock()
	jar, empty := j.jar, len(j.sites) == 0
	j.mu.Unlock()
	if empty {
		return nil // the common case in a crawl: no lookup at all
	}
	return jar.Cookies(u)
}
