package robotsrules

import (
	"strings"
	"testing"

	"github.com/temoto/robotstxt"
)

// TestRulesAgreeWithRobotstxt: the rules read back from a message decide
// every path as the whole robots.txt does for the same agent.
func TestRulesAgreeWithRobotstxt(t *testing.T) {
	bodies := []string{
		"User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: focuscrawl\nDisallow: /nofocus\n",
		"# comment\nUser-agent: otherbot\nDisallow: /\n\nUser-agent: *\nDisallow: /*?session=\nCrawl-delay: 3\nSitemap: http://a/s.xml\n",
		"User-agent: Focus\nUser-agent: googlebot\nDisallow: /g/\nAllow: /g/ok$\n",
		"User-agent: *\nDisallow: /\n",
		"User-agent: otherbot\nDisallow: /\n",
	}
	paths := []string{"/", "/private", "/private/ok/x", "/nofocus/a", "/list?session=3", "/list?page=2", "/g/", "/g/ok", "/g/okx"}
	for _, body := range bodies {
		whole, err := robotstxt.FromString(body)
		if err != nil {
			t.Fatal(err)
		}
		msg := Message([]byte(body), "focuscrawl")
		if !strings.HasPrefix(msg, Kind) {
			t.Fatalf("message %q", msg)
		}
		r, err := Parse(msg)
		if err == ErrNoRules {
			// Only a file with no group for us may carry no rules.
			for _, p := range paths {
				if !whole.TestAgent(p, "focuscrawl") {
					t.Errorf("%q: no rules carried, but %s is disallowed", body, p)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", msg, err)
		}
		for _, p := range paths {
			if got, want := r.Allows(p), whole.TestAgent(p, "focuscrawl"); got != want {
				t.Errorf("%q\n%s: message says %v, robots.txt %v (%s)", body, p, got, want, msg)
			}
		}
	}
}

func TestMessageLeavesOutWhatItCannotCarry(t *testing.T) {
	if m := Message([]byte("User-agent: *\nDisallow: /a ; b\n"), "focuscrawl"); m != Kind {
		t.Errorf("separator in a value: %q", m)
	}
	long := "User-agent: *\n" + strings.Repeat("Disallow: /some/long/path/segment\n", 1000)
	if m := Message([]byte(long), "focuscrawl"); m != Kind {
		t.Errorf("long rules carried: %d bytes", len(m))
	}
	if _, err := Parse("robots-disallow"); err != ErrNoRules {
		t.Errorf("bare kind: %v", err)
	}
}
