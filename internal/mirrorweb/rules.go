package mirrorweb

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Rules give each topic's relevant pages by URL: an HTML page (status
// 200) is relevant to a topic when one of the topic's rules matches its
// URL. A rules file is YAML:
//
//	topics:
//	  gimp-filters:
//	    - {host: gimp-help-zh-cn.docs.test, regex: '^/gimp-filter-[a-z0-9-]+\.html$'}
//	    - {host: gimp-help-zh-cn.docs.test, paths: [/filters.html, /plug-in-emboss.html]}
//	  apache-rewrite:
//	    - {host: apache2-doc.docs.test, prefix: /en/rewrite/}
type Rules struct {
	topics map[string][]Rule
}

// Rule matches URLs of one host by path: a prefix, a regular expression
// (RE2, matched against the path, unanchored unless it anchors itself),
// or a list of exact paths. A rule with several of them matches when any
// does.
type Rule struct {
	Host   string   `yaml:"host"`
	Prefix string   `yaml:"prefix"`
	Regex  string   `yaml:"regex"`
	Paths  []string `yaml:"paths"`
	re     *regexp.Regexp
	paths  map[string]bool
}

// ReadRules reads a rules file; errors name the file, line and key.
func ReadRules(path string) (*Rules, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, err := ParseRules(b)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return r, nil
}

// ParseRules reads rules from YAML.
func ParseRules(b []byte) (*Rules, error) {
	var doc struct {
		Topics yaml.Node `yaml:"topics"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf(" %v", err)
	}
	if doc.Topics.Kind != yaml.MappingNode || len(doc.Topics.Content) == 0 {
		return nil, fmt.Errorf("%d: topics: want a map of topic name to rules", doc.Topics.Line)
	}
	r := &Rules{topics: map[string][]Rule{}}
	for i := 0; i+1 < len(doc.Topics.Content); i += 2 {
		k, v := doc.Topics.Content[i], doc.Topics.Content[i+1]
		name := k.Value
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			return nil, fmt.Errorf("%d:%d: topics.%s: want a list of rules", v.Line, v.Column, name)
		}
		for j, n := range v.Content {
			var rule Rule
			if err := n.Decode(&rule); err != nil {
				return nil, fmt.Errorf("%d:%d: topics.%s[%d]: %v", n.Line, n.Column, name, j, err)
			}
			if err := checkKeys(n); err != nil {
				return nil, fmt.Errorf("%d:%d: topics.%s[%d]: %v", n.Line, n.Column, name, j, err)
			}
			if err := rule.compile(); err != nil {
				return nil, fmt.Errorf("%d:%d: topics.%s[%d]: %v", n.Line, n.Column, name, j, err)
			}
			r.topics[name] = append(r.topics[name], rule)
		}
	}
	return r, nil
}

// checkKeys refuses keys a rule does not have (a typo would otherwise
// silently match nothing).
func checkKeys(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("want a map with host and prefix, regex or paths")
	}
	for i := 0; i < len(n.Content); i += 2 {
		switch k := n.Content[i].Value; k {
		case "host", "prefix", "regex", "paths":
		default:
			return fmt.Errorf("unknown key %q (known: host, prefix, regex, paths)", k)
		}
	}
	return nil
}

func (r *Rule) compile() error {
	r.Host = strings.ToLower(strings.TrimSpace(r.Host))
	if r.Host == "" {
		return fmt.Errorf("host: missing")
	}
	if r.Prefix == "" && r.Regex == "" && len(r.Paths) == 0 {
		return fmt.Errorf("want prefix, regex or paths")
	}
	if r.Regex != "" {
		re, err := regexp.Compile(r.Regex)
		if err != nil {
			return fmt.Errorf("regex: %v", err)
		}
		r.re = re
	}
	r.paths = map[string]bool{}
	for _, p := range r.Paths {
		r.paths[p] = true
	}
	return nil
}

// Topics lists the topic names, sorted.
func (r *Rules) Topics() []string {
	out := make([]string, 0, len(r.topics))
	for t := range r.topics {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Match says whether a URL matches one of the topic's rules.
func (r *Rules) Match(topic, rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := canonicalHost(u.Scheme, u.Host)
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	for _, rule := range r.topics[topic] {
		if rule.Host != host {
			continue
		}
		// The path as in the URL (percent-encoded) and decoded, so a rule
		// may be written either way.
		for _, q := range []string{p, "/" + strings.TrimPrefix(u.Path, "/")} {
			if rule.Prefix != "" && strings.HasPrefix(q, rule.Prefix) ||
				rule.re != nil && rule.re.MatchString(q) || rule.paths[q] {
				return true
			}
		}
	}
	return false
}
