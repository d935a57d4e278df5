package segmenter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// parseDepthLimits are the nesting caps tried, in order, when the HTML
// parser refuses a page for nesting deeper than its own limit (512 open
// elements in x/net/html). The parser's stack can be deeper than the naive
// tag stack (implied elements), hence the decreasing retries.
var parseDepthLimits = []int{400, 200, 64}

// parseHTML parses s into a DOM. Invalid UTF-8 is replaced first, so every
// string taken from the tree is valid. It reports whether nesting had to
// be capped.
func parseHTML(s string) (root *html.Node, capped bool, err error) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = closeRunawayTitle(s)
	root, err = html.Parse(strings.NewReader(s))
	if err == nil {
		return root, false, nil
	}
	for _, limit := range parseDepthLimits {
		flat := capNesting(s, limit)
		root, err = html.Parse(bytes.NewReader(flat))
		if err == nil {
			return root, true, nil
		}
	}
	return nil, true, fmt.Errorf("parse html: %w", err)
}

// voidElements never have content, so they never deepen the tag stack.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true, "keygen": true, "frame": true,
}

// capNesting rewrites s so that no element opens deeper than limit: start
// tags beyond the limit are dropped (their text is kept), end tags close
// the innermost open element of their name. It is a best-effort repair for
// pathological pages, not an HTML parser.
func capNesting(s string, limit int) []byte {
	z := html.NewTokenizer(strings.NewReader(s))
	var out bytes.Buffer
	out.Grow(len(s))
	var stack []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if !errors.Is(z.Err(), io.EOF) {
				out.Write(z.Raw())
			}
			return out.Bytes()
		case html.StartTagToken:
			name, _ := z.TagName()
			n := string(name)
			if voidElements[n] {
				out.Write(z.Raw())
				continue
			}
			if len(stack) >= limit {
				continue
			}
			stack = append(stack, n)
			out.Write(z.Raw())
		case html.EndTagToken:
			name, _ := z.TagName()
			n := string(name)
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i] == n {
					stack = stack[:i]
					out.Write(z.Raw())
					break
				}
			}
		default:
			out.Write(z.Raw())
		}
	}
}
