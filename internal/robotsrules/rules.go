// Package robotsrules carries the robots.txt rules of a host from the
// fetcher to the frontier, inside the error message of a URL robots.txt
// disallows:
//
//	robots-disallow: robots.txt for focuscrawl: user-agent: * ; disallow: /private/ ; allow: /private/pub
//
// The fetcher writes the rules that may apply to its agent (Message); the
// frontier reads them back (Parse) and refuses the host's other
// disallowed URLs before they are ever leased. Both sides match paths
// with the same library (github.com/temoto/robotstxt), so they agree.
package robotsrules

import (
	"bufio"
	"bytes"
	"errors"
	"strings"

	"github.com/temoto/robotstxt"
)

// Kind is the error kind of a URL robots.txt disallows.
const Kind = "robots-disallow"

// MaxLen bounds the rules a message carries; longer rules are left out
// (the message is then the bare kind) and the fetcher alone enforces them.
const MaxLen = 8 << 10

const (
	intro = Kind + ": robots.txt for "
	sep   = " ; "
)

// Message gives the error message of a URL that robots.txt body forbids
// to the agent whose product token is token: the kind, then the groups of
// the file that may apply to that agent (its own and "*"), as
// user-agent, allow and disallow lines. Comments, sitemaps, crawl delays
// and the groups of other agents are left out.
func Message(body []byte, token string) string {
	rules := Select(body, token)
	if rules == "" || len(rules) > MaxLen {
		return Kind
	}
	return intro + token + ": " + rules
}

// Select gives the user-agent, allow and disallow lines of the groups of
// body whose user-agent is "*" or a prefix of token (the groups robotstxt
// may pick for token), joined by " ; ". A line that holds " ; " itself
// makes the result empty: it could not be read back.
func Select(body []byte, token string) string {
	token = strings.ToLower(token)
	var out, group []string
	keep, inRules := false, false
	flush := func() {
		if keep {
			out = append(out, group...)
		}
		group, keep, inRules = group[:0:0], false, false
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if strings.Contains(value, strings.TrimSpace(sep)) {
			return ""
		}
		switch key {
		case "user-agent":
			if inRules {
				flush()
			}
			a := strings.ToLower(value)
			if a == "*" || (a != "" && strings.HasPrefix(token, a)) {
				keep = true
			}
			group = append(group, "user-agent: "+value)
		case "allow", "disallow":
			if len(group) == 0 {
				continue
			}
			inRules = true
			group = append(group, key+": "+value)
		}
	}
	flush()
	return strings.Join(out, sep)
}

// Rules are the robots.txt rules of one host, as far as they apply to one
// agent.
type Rules struct {
	agent string
	data  *robotstxt.RobotsData
	text  string
}

// ErrNoRules is returned by Parse for a message that carries no rules.
var ErrNoRules = errors.New("robotsrules: the message carries no rules")

// Parse reads the rules out of a robots-disallow message.
func Parse(msg string) (*Rules, error) {
	rest, ok := strings.CutPrefix(msg, intro)
	if !ok {
		return nil, ErrNoRules
	}
	agent, text, ok := strings.Cut(rest, ": ")
	if !ok || agent == "" || text == "" {
		return nil, ErrNoRules
	}
	return New(agent, text)
}

// New builds the rules of agent from lines joined by " ; " (the stored form).
func New(agent, text string) (*Rules, error) {
	data, err := robotstxt.FromString(strings.ReplaceAll(text, sep, "\n"))
	if err != nil {
		return nil, err
	}
	return &Rules{agent: agent, data: data, text: text}, nil
}

// Agent is the product token the rules were selected for.
func (r *Rules) Agent() string { return r.agent }

// Text is the stored form of the rules: lines joined by " ; ".
func (r *Rules) Text() string { return r.text }

// Allows tells whether the rules let the agent fetch path (path and query
// of a URL, as robots.txt matches them).
func (r *Rules) Allows(path string) bool {
	if path == "" {
		path = "/"
	}
	return r.data.TestAgent(path, r.agent)
}
