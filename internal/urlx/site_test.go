package urlx

import "testing"

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
