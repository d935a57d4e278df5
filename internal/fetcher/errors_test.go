package fetcher

import (
	"errors"
	"net"
	"net/url"
	"testing"
)

func TestErrorKinds(t *testing.T) {
	dnsErr := &url.Error{Op: "Get", URL: "http://x.invalid/", Err: &net.OpError{Op: "dial", Net: "tcp",
		Err: &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}}}
	refused := &url.Error{Op: "Get", URL: "http://x.test/", Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}}
	tests := []struct {
		msg, kind string
	}{
		{func() string { m, _ := describe(dnsErr); return m }(), KindDNS},
		{func() string { m, _ := describe(refused); return m }(), KindConnect},
		{robotsFailure(func() string { m, _ := describe(dnsErr); return m }()).Error(), KindDNS},
		{robotsFailure(func() string { m, _ := describe(refused); return m }()).Error(), KindConnect},
		{robotsFailure("timeout: context deadline exceeded").Error(), KindRobotsUnreachable},
		{robotsFailure("http 500").Error(), KindRobotsUnreachable},
		{robotsFailure("blocked address 10.1.2.3 (private)").Error(), KindBlocked},
		{"blocked address 10.1.2.3 (private)", KindBlocked},
		{"robots-disallow: robots.txt for focuscrawl: user-agent: * ; disallow: /", KindRobotsDisallow},
		{"http 405", "http 405"},
	}
	for _, tt := range tests {
		if got := ErrorKind(tt.msg); got != tt.kind {
			t.Errorf("ErrorKind(%q) = %q, want %q", tt.msg, got, tt.kind)
		}
	}
	if !IsRobots("robots-unreachable: http 503") || !IsRobots("robots-disallow") || IsRobots("dns: robots.txt: x") {
		t.Error("IsRobots")
	}
}
