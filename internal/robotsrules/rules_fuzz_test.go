package robotsrules

import (
	"strings"
	"testing"
)

// FuzzMessage: for any robots.txt body, the message Message writes is
// read back by Parse for the same agent, and the rules answer for a path,
// all without a panic.
func FuzzMessage(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: other\nDisallow: /\n"), "focuscrawl")
	f.Add([]byte("user-agent: focus\r\ndisallow: /a ; b\r\n"), "focuscrawl/1.0")
	f.Fuzz(func(t *testing.T, body []byte, token string) {
		msg := Message(body, token)
		if msg == Kind {
			return
		}
		r, err := Parse(msg)
		if err != nil {
			return
		}
		if !strings.Contains(token, ": ") && r.Agent() != token {
			t.Fatalf("agent %q read back as %q", token, r.Agent())
		}
		r.Allows("/private/x")
	})
}
