package topic

import (
	"regexp"
	"strings"
)

// Default thresholds, used when a profile does not set them. A page
// threshold near 0.7 was the best trade-off of paper 0 (docs/algorithms.md §1) between site
// precision and sites found.
const (
	DefaultPageThreshold = 0.7
	DefaultLinkThreshold = 0.2
)

// Host ranks of the address library, from the most to the least
// authoritative (paper 4: national > provincial > city > county).
const (
	RankNational = "national"
	RankProvince = "province"
	RankCity     = "city"
	RankCounty   = "county"
	RankOther    = "other"
)

// Ranks lists the valid host ranks, most authoritative first.
var Ranks = []string{RankNational, RankProvince, RankCity, RankCounty, RankOther}

// RankWeight maps a host rank to a priority in (0,1]: national 1.0,
// province 0.8, city 0.6, county 0.4, other 0.2. An unknown rank weighs as
// other.
func RankWeight(rank string) float64 {
	switch rank {
	case RankNational:
		return 1.0
	case RankProvince:
		return 0.8
	case RankCity:
		return 0.6
	case RankCounty:
		return 0.4
	}
	return 0.2
}

// Profile is a loaded, validated topic profile. It is read-only once
// loaded.
type Profile struct {
	// Path is the file the profile was read from (the name given to Parse).
	Path string
	// Name identifies the topic; it defaults to the file name without its
	// extension.
	Name string
	// Language is the main language of the topic's pages ("zh", "en", …);
	// empty means mixed or unknown.
	Language string
	// Description is free topic text, the core of the topic vector.
	Description string
	// Keywords are the weighted feature terms, in file order.
	Keywords []Keyword
	// Examples are labelled seeds (URLs or texts).
	Examples Examples
	// Dictionary is the domain dictionary for the segmenter: the
	// dictionary list followed by the terms of dictionary_files, without
	// duplicates, in file order.
	Dictionary []string
	// Stopwords are extra stop words (stopwords and stopword_files).
	Stopwords []string
	// LinkStopwords are navigation words (首页, 下一页, Login) that mark
	// navigation links in link blocks.
	LinkStopwords []string
	// AdHosts are advertising hosts ("stop addresses"); a host matches an
	// entry equal to it or to one of its parent domains.
	AdHosts []string
	// Synonyms maps a term to Θ, its similarity to the topic in (0,1]:
	// 1.0 for synonyms, 0.5–1.0 for near-synonyms (paper 2's RW).
	Synonyms map[string]float64
	// Rules is the rule set R of F(P,R), weights normalised to sum to 1.
	Rules []Rule
	// Thresholds are the page and link relevance thresholds.
	Thresholds Thresholds
	// Hosts is the address library with authority ranks, in file order.
	Hosts []Host
	// Extract are the per-site extraction rules, in file order.
	Extract []ExtractRule
}

// Keyword is a weighted feature term.
type Keyword struct {
	Term   string
	Weight float64
}

// Examples are the labelled examples of a topic. Positive and Negative hold
// each example as a URL (an absolute http or https URL) or as a text (the
// content of a text file, or inline text); Items keeps where each came from.
type Examples struct {
	Positive []string
	Negative []string
	Items    []Example
}

// Example is one labelled example.
type Example struct {
	// Positive is true for a relevant example, false for an irrelevant one.
	Positive bool
	// URL is set for a URL example.
	URL string
	// Text is set for a text example (file content or inline text).
	Text string
	// File is the resolved path of the file the example came from, if any.
	File string
}

// IsURL reports whether an example string is a URL rather than a text.
func IsURL(s string) bool {
	return !strings.ContainsAny(s, " \t\n") &&
		(strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://"))
}

// Thresholds are the relevance thresholds of a topic, each in [0,1].
type Thresholds struct {
	// Page is the score at or above which a page is relevant.
	Page float64
	// Link is the priority below which a link is not followed.
	Link float64
}

// Host is an entry of the address library.
type Host struct {
	// Host is a lower-case host name, with an optional :port; "*.example.cn"
	// stands for every subdomain of example.cn (and example.cn itself).
	Host string
	// Rank is one of Ranks.
	Rank string
	// Name is the institution's name (国家林业和草原局), for people.
	Name string
}

// Match reports whether host (lower-case host[:port]) is covered by the
// entry.
func (h Host) Match(host string) bool {
	if rest, ok := strings.CutPrefix(h.Host, "*."); ok {
		return host == rest || strings.HasSuffix(host, "."+rest)
	}
	return host == h.Host
}

// Weight is the entry's rank as a priority (RankWeight).
func (h Host) Weight() float64 { return RankWeight(h.Rank) }

// ExtractRule holds the extraction selectors of one site. Each selector is
// a CSS selector ("h1.title", optionally followed by @attr to take an
// attribute: "meta[name=pubdate]@content") or, with the prefix "re:", a
// regular expression applied to the page's HTML whose first capture group
// (or whole match) is the value. ParseSelector parses them.
type ExtractRule struct {
	// Site is a host or registrable domain (the rule covers it and its
	// subdomains), or "*" for every site without a rule of its own.
	Site      string
	Title     string
	Published string
	Source    string
	Author    string
	Content   string
	// Fields are named extra fields (field name → selector).
	Fields map[string]string
}

// Match reports whether the rule covers host (lower-case host[:port]).
func (e ExtractRule) Match(host string) bool {
	if e.Site == "*" {
		return true
	}
	h := host
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(e.Site, ":") {
		h = h[:i]
	}
	return h == e.Site || strings.HasSuffix(h, "."+e.Site)
}

// Rule is one rule of the rule set R: a boolean expression over regular
// expressions and a weight.
type Rule struct {
	Name string
	// Weight is normalised: the weights of a profile's rules sum to 1.
	Weight float64
	// Any: at least one must match (OR). All: every one must match (AND).
	// Not: none may match (NOT). Empty lists impose nothing.
	Any, All, Not []*regexp.Regexp

	// Literal prefilters of Any, All and Not, index for index, set by the
	// loader; a Rule built by hand runs its regexps unfiltered.
	anyF, allF, notF []prefilter
}

// Match reports whether text satisfies the rule: one of Any (if any), all
// of All and none of Not.
func (r Rule) Match(text string) bool {
	return r.match(text, &foldedText{})
}

func (r Rule) match(text string, folded *foldedText) bool {
	if len(r.Any) > 0 {
		found := false
		for i, re := range r.Any {
			if matches(re, r.anyF, i, text, folded) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	for i, re := range r.All {
		if !matches(re, r.allF, i, text, folded) {
			return false
		}
	}
	for i, re := range r.Not {
		if matches(re, r.notF, i, text, folded) {
			return false
		}
	}
	return true
}

// matches runs re on text unless its prefilter (filters[i]) rules a match
// out.
func matches(re *regexp.Regexp, filters []prefilter, i int, text string, folded *foldedText) bool {
	if i < len(filters) && !filters[i].mayMatch(text, folded) {
		return false
	}
	return re.MatchString(text)
}

// compileFilters sets the rule's literal prefilters.
func (r *Rule) compileFilters() {
	build := func(res []*regexp.Regexp) []prefilter {
		out := make([]prefilter, len(res))
		for i, re := range res {
			out[i] = newPrefilter(re)
		}
		return out
	}
	r.anyF, r.allF, r.notF = build(r.Any), build(r.All), build(r.Not)
}

// RuleScore is F(P,R) of docs/algorithms.md §1: the sum of the normalised
// weights of the rules that text satisfies, in [0,1], with the names of
// those rules in profile order. A profile without rules scores 0.
func (p *Profile) RuleScore(text string) (score float64, matched []string) {
	folded := &foldedText{}
	for _, r := range p.Rules {
		if r.match(text, folded) {
			score += r.Weight
			matched = append(matched, r.Name)
		}
	}
	if score > 1 { // rounding of the normalised weights
		score = 1
	}
	return score, matched
}

// HostRank finds the address-library entry covering host (lower-case
// host[:port]); an exact entry wins over a wildcard one, and a longer
// wildcard over a shorter one.
func (p *Profile) HostRank(host string) (Host, bool) {
	best, bestLen := Host{}, -1
	for _, h := range p.Hosts {
		if !h.Match(host) {
			continue
		}
		l := len(h.Host)
		if !strings.HasPrefix(h.Host, "*.") {
			l += 1 << 20
		}
		if l > bestLen {
			best, bestLen = h, l
		}
	}
	return best, bestLen >= 0
}

// ExtractFor returns the extraction rule for host: the one whose site is
// the longest match, else the "*" rule, else false.
func (p *Profile) ExtractFor(host string) (ExtractRule, bool) {
	best, bestLen := ExtractRule{}, -1
	for _, e := range p.Extract {
		if !e.Match(host) {
			continue
		}
		l := len(e.Site)
		if e.Site == "*" {
			l = 0
		}
		if l > bestLen {
			best, bestLen = e, l
		}
	}
	return best, bestLen >= 0
}

// IsAdHost reports whether host (host[:port]) is an ad host or a subdomain
// of one.
func (p *Profile) IsAdHost(host string) bool {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	host = strings.ToLower(host)
	for _, a := range p.AdHosts {
		if host == a || strings.HasSuffix(host, "."+a) {
			return true
		}
	}
	return false
}

// KeywordWeights returns the keywords as a map from term to weight.
func (p *Profile) KeywordWeights() map[string]float64 {
	m := make(map[string]float64, len(p.Keywords))
	for _, k := range p.Keywords {
		m[k.Term] = k.Weight
	}
	return m
}
