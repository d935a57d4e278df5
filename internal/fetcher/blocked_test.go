package fetcher

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// TestBlockedAddresses: one address per refused class, in the URL itself.
// None is ever connected to: the check runs before the connect.
func TestBlockedAddresses(t *testing.T) {
	cfg := testConfig()
	cfg.Retries = 0
	f := newFetcher(t, nil, cfg)
	for _, tc := range []struct{ url, want string }{
		{"http://127.0.0.1:1/", "blocked address 127.0.0.1 (loopback)"},
		{"http://[::1]:1/", "blocked address ::1 (loopback)"},
		{"http://10.1.2.3/", "blocked address 10.1.2.3 (private)"},
		{"http://172.20.0.5/", "blocked address 172.20.0.5 (private)"},
		{"http://192.168.0.1/", "blocked address 192.168.0.1 (private)"},
		{"http://[fd00::1]/", "blocked address fd00::1 (unique-local)"},
		{"http://169.254.169.254/latest/meta-data/", "blocked address 169.254.169.254 (link-local)"},
		{"http://[fe80::1]/", "blocked address fe80::1 (link-local)"},
		{"http://100.64.1.1/", "blocked address 100.64.1.1 (cgnat)"},
		{"http://224.0.0.251/", "blocked address 224.0.0.251 (multicast)"},
		{"http://[ff02::1]/", "blocked address ff02::1 (multicast)"},
		{"http://0.0.0.0/", "blocked address 0.0.0.0 (unspecified)"},
		{"http://[::]/", "blocked address :: (unspecified)"},
		{"http://[::ffff:10.1.2.3]/", "blocked address 10.1.2.3 (private)"},
		{"http://[::ffff:127.0.0.1]:1/", "blocked address 127.0.0.1 (loopback)"},
		{"http://255.255.255.255/", "blocked address 255.255.255.255 (broadcast)"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			p := f.Fetch(context.Background(), record.URL{URL: tc.url})
			if p.Error != tc.want {
				t.Errorf("error %q, want %q", p.Error, tc.want)
			}
		})
	}
}

// TestBlockedRedirectAndName: a public-looking name that resolves to
// loopback, and a redirect from an allowed server to loopback, are both
// refused at the dial.
func TestBlockedRedirectAndName(t *testing.T) {
	target := httptest.NewServer(htmlHandler("<p>secret</p>"))
	defer target.Close()
	front := httptest.NewServer(http.RedirectHandler(target.URL+"/meta", http.StatusFound))
	defer front.Close()
	_, frontPort, _ := net.SplitHostPort(front.Listener.Addr().String())

	cfg := testConfig()
	cfg.Retries = 0
	cfg.IgnoreRobots = true
	// Only the front server is reachable, through --resolve.
	cfg.Resolve, _ = ParseResolve([]string{"front.test:" + frontPort + ":127.0.0.1"})
	f := newFetcher(t, nil, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: "http://front.test:" + frontPort + "/"})
	if p.Error != "blocked address 127.0.0.1 (loopback)" || p.HTML != "" {
		t.Errorf("redirect to loopback: error %q, html %q", p.Error, p.HTML)
	}
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
	p = f.Fetch(context.Background(), record.URL{URL: "http://localhost:" + port + "/"})
	if p.Error != "blocked address 127.0.0.1 (loopback)" && p.Error != "blocked address ::1 (loopback)" {
		t.Errorf("localhost: error %q", p.Error)
	}

	cfg.AllowPrivate = true
	f = newFetcher(t, nil, cfg)
	p = f.Fetch(context.Background(), record.URL{URL: "http://front.test:" + frontPort + "/"})
	if p.Error != "" || !strings.Contains(p.HTML, "secret") {
		t.Errorf("--allow-private: error %q, html %q", p.Error, p.HTML)
	}
}

// TestProxyAllowed: the proxy is on loopback, and the user named it.
func TestProxyAllowed(t *testing.T) {
	proxy := httptest.NewServer(htmlHandler("<p>via proxy</p>"))
	defer proxy.Close()
	cfg := testConfig()
	cfg.Retries = 0
	cfg.IgnoreRobots = true
	cfg.Proxy = proxy.URL
	f := newFetcher(t, nil, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: "http://www.forestry.test/"})
	if p.Error != "" || !strings.Contains(p.HTML, "via proxy") {
		t.Errorf("error %q, html %q", p.Error, p.HTML)
	}
}

// TestErrorRecordPassedOn: a url record that carries an error (a line
// too long upstream) becomes an error page without a request.
func TestErrorRecordPassedOn(t *testing.T) {
	cfg := testConfig()
	f := newFetcher(t, nil, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: "http://10.9.9.9/", Error: "input: line too long (over 1048576 bytes)"})
	if p.Error != "input: line too long (over 1048576 bytes)" || p.URL != "http://10.9.9.9/" {
		t.Errorf("page %+v", p)
	}
}
