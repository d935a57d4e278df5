package topic

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxErrors bounds the problems reported for one file: past it the file is
// probably not a profile at all.
const maxErrors = 30

// decoder walks the YAML node tree, recording every problem with its line
// and key path.
type decoder struct {
	file string // as named in messages
	dir  string // where relative file names are resolved
	errs []error
}

func (d *decoder) add(n *yaml.Node, key string, err error, format string, args ...any) {
	if len(d.errs) >= maxErrors {
		return
	}
	e := &Error{File: d.file, Key: key, Msg: fmt.Sprintf(format, args...), Err: err}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	d.errs = append(d.errs, e)
	if len(d.errs) == maxErrors {
		d.errs = append(d.errs, &Error{File: d.file, Msg: "too many errors; stopped"})
	}
}

func (d *decoder) errorf(n *yaml.Node, key, format string, args ...any) {
	d.add(n, key, nil, format, args...)
}

// resolve follows aliases (*name) to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// kindName describes a node for "want X, got Y" messages.
func kindName(n *yaml.Node) string {
	switch {
	case isNull(n):
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!bool":
			return "the boolean " + n.Value
		}
		return fmt.Sprintf("the string %q", n.Value)
	}
	return "an unexpected node"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// mapping calls fn for every key of the mapping n, in file order, after
// checking that n is a mapping, that no key repeats and, when allowed is
// not nil, that every key is allowed. Merge keys (<<: *base) are expanded.
// A null node is an empty mapping.
func (d *decoder) mapping(path string, n *yaml.Node, allowed []string, fn func(key, path string, k, v *yaml.Node)) {
	seen := map[string]int{}
	d.mappingSeen(path, n, allowed, seen, fn)
}

func (d *decoder) mappingSeen(path string, n *yaml.Node, allowed []string, seen map[string]int, fn func(key, path string, k, v *yaml.Node)) {
	n = resolve(n)
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		what := "a mapping"
		if len(allowed) > 0 {
			what = "a mapping with keys " + strings.Join(allowed, ", ")
		}
		d.errorf(n, path, "want %s, got %s", what, kindName(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errorf(k, path, "want a plain key, got %s", kindName(k))
			continue
		}
		if k.ShortTag() == "!!merge" {
			v = resolve(v)
			if v.Kind == yaml.SequenceNode {
				for _, m := range v.Content {
					d.mappingSeen(path, m, allowed, seen, fn)
				}
			} else {
				d.mappingSeen(path, v, allowed, seen, fn)
			}
			continue
		}
		key := strings.TrimSpace(k.Value)
		kp := join(path, key)
		if first, dup := seen[key]; dup {
			d.errorf(k, kp, "duplicate key (first at line %d)", first)
			continue
		}
		seen[key] = k.Line
		if allowed != nil && !slices.Contains(allowed, key) {
			if home, ok := misplaced[key]; ok && path == "" {
				d.errorf(k, kp, "unknown key %q at the top level; it belongs under %s", key, home)
			} else if s := suggest(key, allowed); s != "" {
				d.errorf(k, kp, "unknown key %q; did you mean %q?", key, s)
			} else {
				d.errorf(k, kp, "unknown key %q; known keys: %s", key, strings.Join(allowed, ", "))
			}
			continue
		}
		fn(key, kp, k, v)
	}
}

// misplaced maps keys of nested sections to where they belong, for a
// better message when one is written at the top level.
var misplaced = map[string]string{
	"page": "thresholds", "link": "thresholds",
	"any": "an item of rules", "all": "an item of rules", "not": "an item of rules", "weight": "an item of rules",
	"host": "an item of hosts", "rank": "an item of hosts",
	"site": "an item of extract", "title": "an item of extract", "published": "an item of extract",
	"source": "an item of extract", "author": "an item of extract", "content": "an item of extract",
	"fields":   "an item of extract",
	"positive": "examples", "negative": "examples",
}

// sequence calls fn for every item of the list n. A single scalar counts as
// a list of one when scalarOK; a null node is an empty list.
func (d *decoder) sequence(path string, n *yaml.Node, scalarOK bool, fn func(path string, item *yaml.Node)) {
	n = resolve(n)
	switch {
	case isNull(n):
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			fn(index(path, i), resolve(item))
		}
	case scalarOK && n.Kind == yaml.ScalarNode:
		fn(path, n)
	default:
		d.errorf(n, path, "want a list, got %s", kindName(n))
	}
}

// str returns the scalar n as a string; ok is false (and the problem
// recorded) when n is a list or mapping. Null is "".
func (d *decoder) str(path string, n *yaml.Node) (string, bool) {
	n = resolve(n)
	if isNull(n) {
		return "", true
	}
	if n.Kind != yaml.ScalarNode {
		d.errorf(n, path, "want a string, got %s", kindName(n))
		return "", false
	}
	return n.Value, true
}

// term returns a trimmed, non-empty string.
func (d *decoder) term(path string, n *yaml.Node) (string, bool) {
	s, ok := d.str(path, n)
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	if s == "" {
		d.errorf(resolve(n), path, "empty term")
		return "", false
	}
	return s, true
}

// terms returns a list of distinct terms (a single string is a list of
// one), in order.
func (d *decoder) terms(path string, n *yaml.Node) []string {
	var out []string
	d.sequence(path, n, true, func(p string, item *yaml.Node) {
		if t, ok := d.term(p, item); ok {
			out = append(out, t)
		}
	})
	return out
}

// number returns the numeric scalar n. Quoted numbers are refused: a
// weight written "0.5" is most often a slip that would silently be text
// elsewhere.
func (d *decoder) number(path string, n *yaml.Node) (float64, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || isNull(n) || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") {
		d.errorf(n, path, "want a number, got %s", kindName(n))
		return 0, false
	}
	var f float64
	if err := n.Decode(&f); err != nil {
		d.add(n, path, err, "want a number, got %q", n.Value)
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		d.errorf(n, path, "want a finite number, got %s", n.Value)
		return 0, false
	}
	return f, true
}

// weight returns a number that must not be negative (or, when positive is
// set, must be above zero).
func (d *decoder) weight(path string, n *yaml.Node, positive bool) (float64, bool) {
	f, ok := d.number(path, n)
	if !ok {
		return 0, false
	}
	if f < 0 || (positive && f == 0) {
		want := "0 or more"
		if positive {
			want = "above 0"
		}
		d.errorf(resolve(n), path, "weight must be %s, got %s", want, resolve(n).Value)
		return 0, false
	}
	return f, true
}

// unit returns a number in [0,1].
func (d *decoder) unit(path string, n *yaml.Node) (float64, bool) {
	f, ok := d.number(path, n)
	if !ok {
		return 0, false
	}
	if f < 0 || f > 1 {
		d.errorf(resolve(n), path, "must be between 0 and 1, got %s", resolve(n).Value)
		return 0, false
	}
	return f, true
}
