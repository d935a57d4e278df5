package topic

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/andybalholm/cascadia"
)

// Selector is a parsed extraction selector of an ExtractRule.
type Selector struct {
	// CSS is the CSS selector group; empty for a regular expression.
	CSS string
	// Attr, when set, takes this attribute of the selected elements instead
	// of their text.
	Attr string
	// Regexp is set for a "re:" selector: applied to the page's HTML, its
	// first capture group (or whole match) is the value.
	Regexp *regexp.Regexp
}

// RegexpPrefix starts a selector that is a regular expression.
const RegexpPrefix = "re:"

var attrName = regexp.MustCompile(`^[A-Za-z_:][-A-Za-z0-9_:.]*$`)

// ParseSelector parses an extraction selector: "re:REGEXP", "CSS" or
// "CSS@attr". The selectors of a loaded profile always parse.
func ParseSelector(s string) (Selector, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Selector{}, errors.New("empty selector")
	}
	if rest, ok := strings.CutPrefix(s, RegexpPrefix); ok {
		re, err := regexp.Compile(rest)
		if err != nil {
			return Selector{}, fmt.Errorf("bad regex: %w", err)
		}
		return Selector{Regexp: re}, nil
	}
	sel := Selector{CSS: s}
	if i := strings.LastIndexByte(s, '@'); i > 0 && attrName.MatchString(s[i+1:]) {
		sel.CSS, sel.Attr = strings.TrimSpace(s[:i]), s[i+1:]
	}
	if _, err := cascadia.ParseGroup(sel.CSS); err != nil {
		return Selector{}, fmt.Errorf("bad CSS selector %q: %w", sel.CSS, err)
	}
	return sel, nil
}
