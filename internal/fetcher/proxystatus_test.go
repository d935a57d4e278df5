package fetcher

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

func TestProxyError(t *testing.T) {
	tests := []struct {
		values                 []string
		proxy, errType, detail string
	}{
		{[]string{`simweb; error=dns_error`}, "simweb", "dns_error", ""},
		{[]string{`origin-cache, edge; error=connection_refused; details="port 80, then 443"`}, "edge", "connection_refused", "port 80, then 443"},
		{[]string{`"a proxy"; received-status=503`, `b; error="connection_timeout"`}, "b", "connection_timeout", ""},
		{[]string{`cache; hit`}, "", "", ""},
		{nil, "", "", ""},
	}
	for _, tt := range tests {
		p, e, d := proxyError(tt.values)
		if p != tt.proxy || e != tt.errType || d != tt.detail {
			t.Errorf("%q: got %q %q %q, want %q %q %q", tt.values, p, e, d, tt.proxy, tt.errType, tt.detail)
		}
	}
}

func TestStatusFailureKinds(t *testing.T) {
	tests := []struct {
		code        int
		proxyStatus string
		kind        string
		retriable   bool
	}{
		{502, "simweb; error=dns_error", KindDNS, false},
		{502, "simweb; error=dns_timeout", KindDNS, false},
		{502, "p; error=connection_refused", KindConnect, true},
		{503, "p; error=destination_unavailable", KindConnect, true},
		{504, "p; error=connection_timeout", KindTimeout, true},
		{502, "p; error=destination_ip_prohibited", KindBlocked, false},
		{502, "p; error=proxy_internal_error", "http 502", true},
		{502, "", "http 502", true},
		{405, "p; error=dns_error", "http 405", false}, // only gateway answers speak for the origin
		{404, "", "http 404", false},
	}
	for _, tt := range tests {
		resp := &http.Response{StatusCode: tt.code, Header: http.Header{}}
		if tt.proxyStatus != "" {
			resp.Header.Set("Proxy-Status", tt.proxyStatus)
		}
		msg, retr := statusFailure(resp)
		if ErrorKind(msg) != tt.kind || retr != tt.retriable {
			t.Errorf("%d %q: %q retriable=%v, want kind %q retriable=%v", tt.code, tt.proxyStatus, msg, retr, tt.kind, tt.retriable)
		}
	}
}

// TestProxyStatusErrorKinds fetches through a proxy that answers for
// unknown hosts as a real one does (502 with Proxy-Status): the pages
// say dns or connect, robots.txt included, not "http 502" or "robots".
func TestProxyStatusErrorKinds(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Hostname()
		switch {
		case strings.HasSuffix(host, ".invalid"):
			w.Header().Set("Proxy-Status", "testproxy; error=dns_error")
			w.WriteHeader(http.StatusBadGateway)
		case host == "refused.test":
			w.Header().Set("Proxy-Status", "testproxy; error=connection_refused")
			w.WriteHeader(http.StatusBadGateway)
		case host == "flaky.test" && r.URL.Path == "/robots.txt":
			w.WriteHeader(http.StatusServiceUnavailable)
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.URL.Path == "/gone":
			w.Header().Set("Proxy-Status", "testproxy; error=dns_error")
			w.WriteHeader(http.StatusBadGateway)
		case r.URL.Path == "/post-only":
			w.WriteHeader(http.StatusMethodNotAllowed)
		default:
			w.Write([]byte("<p>ok</p>"))
		}
	}))
	t.Cleanup(proxy.Close)
	cfg := testConfig()
	cfg.Proxy = proxy.URL
	cfg.Retries = 0
	f := newFetcher(t, nil, cfg)
	tests := []struct{ url, want string }{
		{"http://nowhere.invalid/a", "dns: robots.txt: proxy testproxy: dns_error"},
		{"http://refused.test/a", "connect: robots.txt: proxy testproxy: connection_refused"},
		{"http://flaky.test/a", "robots-unreachable: http 503"},
		{"http://up.test/gone", "dns: proxy testproxy: dns_error"},
		{"http://up.test/post-only", "http 405"},
		{"http://up.test/fine", ""},
	}
	for _, tt := range tests {
		p := f.Fetch(context.Background(), record.URL{URL: tt.url})
		if p.Error != tt.want {
			t.Errorf("%s: error %q, want %q", tt.url, p.Error, tt.want)
		}
	}
}

// TestProxyStatusOnConnect: https through a proxy that refuses the
// CONNECT with Proxy-Status gets the kind the proxy names.
func TestProxyStatusOnConnect(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodConnect {
			w.Header().Set("Proxy-Status", "testproxy; error=dns_error")
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(proxy.Close)
	cfg := testConfig()
	cfg.Proxy = proxy.URL
	cfg.Retries = 0
	f := newFetcher(t, nil, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: "https://nowhere.invalid/a"})
	if p.Error != "dns: robots.txt: proxy testproxy: dns_error" {
		t.Errorf("error %q", p.Error)
	}
}
