package frontier

import (
	"regexp"
	"strings"
	"testing"
)

func inGov(h string) bool { return strings.HasSuffix(h, ".gov.cn") }

func TestPolicyCheck(t *testing.T) {
	tests := []struct {
		name   string
		policy Policy
		c      Candidate
		want   string
	}{
		{"zero policy admits", Policy{}, Candidate{URL: "http://a.cn/x", Host: "a.cn"}, ""},
		{"not http", Policy{}, Candidate{URL: "ftp://a.cn/x", Host: "a.cn"}, GuardNotHTTP},
		{"no host", Policy{}, Candidate{URL: "http:///x", Host: ""}, GuardInvalidURL},
		{"no scheme", Policy{}, Candidate{URL: "a.cn/x", Host: "a.cn"}, GuardInvalidURL},
		{"host scope same host", Policy{Scope: ScopeHost}, Candidate{URL: "http://a.cn/x", Host: "a.cn", ParentHost: "a.cn"}, ""},
		{"host scope other host", Policy{Scope: ScopeHost}, Candidate{URL: "http://b.a.cn/x", Host: "b.a.cn", Site: "a.cn", ParentHost: "a.cn", ParentSite: "a.cn"}, GuardScope},
		{"domain scope subdomain", Policy{Scope: ScopeDomain}, Candidate{URL: "http://b.a.cn/x", Host: "b.a.cn", Site: "a.cn", ParentHost: "a.cn", ParentSite: "a.cn"}, ""},
		{"domain scope other", Policy{Scope: ScopeDomain}, Candidate{URL: "http://b.cn/x", Host: "b.cn", Site: "b.cn", ParentHost: "a.cn", ParentSite: "a.cn"}, GuardScope},
		{"seed ignores scope", Policy{Scope: ScopeHost}, Candidate{URL: "http://b.cn/x", Host: "b.cn"}, ""},
		{"max depth", Policy{MaxDepth: 2}, Candidate{URL: "http://a.cn/x", Host: "a.cn", Depth: 3}, GuardMaxDepth},
		{"max depth edge", Policy{MaxDepth: 2}, Candidate{URL: "http://a.cn/x", Host: "a.cn", Depth: 2}, ""},
		{"library hit", Policy{InLibrary: inGov}, Candidate{URL: "http://lyj.gov.cn/", Host: "lyj.gov.cn"}, ""},
		{"library miss", Policy{InLibrary: inGov}, Candidate{URL: "http://xgov.cn/", Host: "xgov.cn"}, GuardHostLibrary},
		{"deny", Policy{Deny: []*regexp.Regexp{regexp.MustCompile(`\.pdf$`)}}, Candidate{URL: "http://a.cn/x.pdf", Host: "a.cn"}, GuardDeny},
		{"allow miss", Policy{Allow: []*regexp.Regexp{regexp.MustCompile(`/news/`)}}, Candidate{URL: "http://a.cn/x", Host: "a.cn"}, GuardAllow},
		{"allow hit", Policy{Allow: []*regexp.Regexp{regexp.MustCompile(`/news/`)}}, Candidate{URL: "http://a.cn/news/1", Host: "a.cn"}, ""},
		{"path depth", Policy{MaxPathDepth: 3}, Candidate{URL: "http://a.cn/1/2/3/4", Host: "a.cn"}, GuardPathDepth},
		{"path depth ok", Policy{MaxPathDepth: 3}, Candidate{URL: "http://a.cn/1/2/3", Host: "a.cn"}, ""},
		{"repeated", Policy{MaxRepeat: 2}, Candidate{URL: "http://a.cn/cal/x/cal/y/cal", Host: "a.cn"}, GuardRepeated},
		{"repeated twice ok", Policy{MaxRepeat: 2}, Candidate{URL: "http://a.cn/2020/01/01", Host: "a.cn"}, ""},
		{"query params", Policy{MaxQueryParams: 2}, Candidate{URL: "http://a.cn/?a=1&b=2&c=3", Host: "a.cn"}, GuardQueryParams},
		{"query params ok", Policy{MaxQueryParams: 2}, Candidate{URL: "http://a.cn/?a=1&b=2", Host: "a.cn"}, ""},
		{"url length", Policy{MaxURLLength: 20}, Candidate{URL: "http://a.cn/0123456789abc", Host: "a.cn"}, GuardURLLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.policy.Check(tt.c); got != tt.want {
				t.Errorf("Check(%s) = %q, want %q", tt.c.URL, got, tt.want)
			}
		})
	}
}

func TestHostOf(t *testing.T) {
	for in, want := range map[string]string{
		"http://a.cn/x?y#z":       "a.cn",
		"https://a.cn:8080?q":     "a.cn:8080",
		"http://user@a.cn/":       "a.cn",
		"http://[::1]:80/":        "[::1]:80",
		"https://xn--fiq228c.cn/": "xn--fiq228c.cn",
		"mailto:x@y":              "",
	} {
		if got := HostOf(in); got != want {
			t.Errorf("HostOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseScope(t *testing.T) {
	for _, s := range []string{"host", "domain", "any", ""} {
		if _, err := ParseScope(s); err != nil {
			t.Errorf("ParseScope(%q): %v", s, err)
		}
	}
	if _, err := ParseScope("site"); err == nil {
		t.Error("ParseScope(site) accepted")
	}
}
