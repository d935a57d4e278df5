package urlx

import (
	"strings"
	"testing"
)

func TestSiteKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"lyj.zj.gov.cn", "zj.gov.cn"},
		{"www.forestry.gov.cn", "forestry.gov.cn"},
		{"https://lyj.zj.gov.cn/a/b", "zj.gov.cn"},
		{"http://WWW.Example.CO.UK:8080/x", "example.co.uk"},
		{"www.example.co.uk:8080", "example.co.uk"},
		{"example.com", "example.com"},
		{"a.b.c.example.com", "example.com"},
		{"example.com.", "example.com"},
		{"alice.github.io", "alice.github.io"},
		{"gov.cn", "gov.cn"},
		{"com", "com"},
		{"localhost", "localhost"},
		{"localhost:8080", "localhost"},
		{"http://127.0.0.1:8080/", "127.0.0.1"},
		{"10.0.0.1", "10.0.0.1"},
		{"http://[2001:db8::1]/", "[2001:db8::1]"},
		{"[::1]:80", "[::1]"},
		{"www.中国.cn", "xn--fiqs8s.cn"},
		{"site7.simweb.test", "simweb.test"},
		{"", ""},
		{"mailto:x@y.example", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := SiteKey(tt.in); got != tt.want {
				t.Fatalf("SiteKey(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFastHostOfAgrees(t *testing.T) {
	for _, in := range append(fastSamples, "http://1.2.3.4:80/", "http://01.2.3.4/", "http://[::1]/", "http://u@a.example/",
		"http://A.example/", "http://a.example:99/", "https://lyj.zj.gov.cn/a") {
		h, ok := fastHostOf(in)
		if !ok {
			continue
		}
		u, err := parse(in)
		if err != nil {
			t.Fatalf("fastHostOf(%q) = %q but the URL does not parse: %v", in, h, err)
		}
		if want := strings.TrimSuffix(u.Hostname(), "."); h != want {
			t.Fatalf("fastHostOf(%q) = %q, parser says %q", in, h, want)
		}
	}
}
