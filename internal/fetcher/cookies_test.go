package fetcher

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

func TestBoundedJar(t *testing.T) {
	j := newBoundedJar()
	u := func(host string) *url.URL { return &url.URL{Scheme: "http", Host: host, Path: "/"} }
	if c := j.Cookies(u("a.example.cn")); c != nil {
		t.Errorf("empty jar gave %v", c)
	}
	j.SetCookies(u("www.example.cn"), []*http.Cookie{{Name: "s", Value: "1"}})
	if c := j.Cookies(u("www.example.cn")); len(c) != 1 {
		t.Errorf("cookie not kept: %v", c)
	}
	for i := 0; i < maxCookieSites; i++ {
		j.SetCookies(u(fmt.Sprintf("h%d.test", i)), []*http.Cookie{{Name: "s", Value: "1"}})
	}
	if len(j.sites) > maxCookieSites {
		t.Errorf("%d sites in the jar, cap %d", len(j.sites), maxCookieSites)
	}
	if c := j.Cookies(u("www.example.cn")); len(c) != 0 {
		t.Errorf("the jar was not started afresh: %v", c)
	}
}
