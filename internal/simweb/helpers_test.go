package simweb

import (
	"net/http"
	"net/url"
)

// proxyClient is an HTTP client that sends every request through the
// simweb server at proxyURL and does not follow redirects.
func proxyClient(proxyURL string) *http.Client {
	pu, _ := url.Parse(proxyURL)
	return &http.Client{
		Transport: &http.Transport{Proxy: http.ProxyURL(pu), MaxIdleConnsPerHost: 64},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
