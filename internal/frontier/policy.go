package frontier

import (
	"fmt"
	"regexp"
	"strings"
)

// Scope says how far from the page it was found on a link may lead.
type Scope string

// The scopes.
const (
	ScopeAny    Scope = "any"    // anywhere
	ScopeHost   Scope = "host"   // the same host as its page
	ScopeDomain Scope = "domain" // the same registrable domain (site key)
)

// ParseScope reads a --scope value.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case ScopeAny, ScopeHost, ScopeDomain:
		return Scope(s), nil
	case "":
		return ScopeAny, nil
	}
	return "", fmt.Errorf("scope %q is not host, domain or any", s)
}

// The guards, as counted in the frontier's refusal figures.
const (
	GuardScope       = "scope"
	GuardHostLibrary = "host-library"
	GuardMaxDepth    = "max-depth"
	GuardAllow       = "allow"
	GuardDeny        = "deny"
	GuardPathDepth   = "max-path-depth"
	GuardRepeated    = "repeated-segments"
	GuardQueryParams = "max-query-params"
	GuardURLLength   = "max-url-length"
	GuardPruned      = "pruned"
	GuardNofollow    = "nofollow"
	GuardInvalidURL  = "invalid-url"
	GuardNotHTTP     = "not-http"
)

// Policy decides which URLs may enter the frontier. Zero limits mean no
// limit; a zero Policy admits everything.
type Policy struct {
	Scope Scope
	// InLibrary, when set, admits only the hosts of the address library.
	InLibrary func(host string) bool
	// MaxDepth refuses URLs more than MaxDepth links from a seed.
	MaxDepth int
	// Allow, when not empty, admits only URLs matching one of them; Deny
	// refuses URLs matching any of them.
	Allow, Deny []*regexp.Regexp
	// Trap guards.
	MaxPathDepth   int // path segments
	MaxRepeat      int // occurrences of one path segment
	MaxQueryParams int // query parameters
	MaxURLLength   int // bytes
}

// Candidate is a URL offered to the frontier. ParentHost and ParentSite
// are empty for seeds, which the scope does not restrict.
type Candidate struct {
	URL, Host, Site        string
	Depth                  int
	ParentHost, ParentSite string
}

// Check returns the guard that refuses c, or "" when c is admitted. c.URL
// must be normalised (urlx.Normalize).
func (p *Policy) Check(c Candidate) string {
	if p.MaxURLLength > 0 && len(c.URL) > p.MaxURLLength {
		return GuardURLLength
	}
	u, ok := splitURL(c.URL)
	if !ok {
		return GuardInvalidURL
	}
	if u.scheme != "http" && u.scheme != "https" {
		return GuardNotHTTP
	}
	if p.MaxDepth > 0 && c.Depth > p.MaxDepth {
		return GuardMaxDepth
	}
	if c.ParentHost != "" {
		switch p.Scope {
		case ScopeHost:
			if c.Host != c.ParentHost {
				return GuardScope
			}
		case ScopeDomain:
			if c.Site != c.ParentSite {
				return GuardScope
			}
		}
	}
	if p.InLibrary != nil && !p.InLibrary(c.Host) {
		return GuardHostLibrary
	}
	for _, re := range p.Deny {
		if re.MatchString(c.URL) {
			return GuardDeny
		}
	}
	if len(p.Allow) > 0 && !matchesAny(p.Allow, c.URL) {
		return GuardAllow
	}
	return p.checkTraps(u)
}

func (p *Policy) checkTraps(u urlParts) string {
	if p.MaxPathDepth > 0 || p.MaxRepeat > 0 {
		segs := strings.FieldsFunc(u.path, func(r rune) bool { return r == '/' })
		if p.MaxPathDepth > 0 && len(segs) > p.MaxPathDepth {
			return GuardPathDepth
		}
		if p.MaxRepeat > 0 && len(segs) > p.MaxRepeat {
			seen := make(map[string]int, len(segs))
			for _, s := range segs {
				seen[s]++
				if seen[s] > p.MaxRepeat {
					return GuardRepeated
				}
			}
		}
	}
	if p.MaxQueryParams > 0 && u.query != "" {
		if n := strings.Count(u.query, "&") + 1; n > p.MaxQueryParams {
			return GuardQueryParams
		}
	}
	return ""
}

// urlParts are the pieces of a URL the guards look at.
type urlParts struct {
	scheme, host, path, query string
}

// splitURL cuts an absolute URL into its parts without a full parse:
// candidates are normalised already, and this runs for every link.
func splitURL(s string) (urlParts, bool) {
	var u urlParts
	i := strings.Index(s, "://")
	if i <= 0 {
		return u, false
	}
	u.scheme, s = strings.ToLower(s[:i]), s[i+3:]
	if j := strings.IndexByte(s, '#'); j >= 0 {
		s = s[:j]
	}
	end := strings.IndexAny(s, "/?")
	if end < 0 {
		end = len(s)
	}
	u.host, s = s[:end], s[end:]
	if at := strings.LastIndexByte(u.host, '@'); at >= 0 {
		u.host = u.host[at+1:]
	}
	if u.host == "" {
		return u, false
	}
	u.path, u.query, _ = strings.Cut(s, "?")
	return u, true
}

// HostOf returns the host[:port] of a normalised URL, as urlx.Host would,
// without parsing it again.
func HostOf(normalized string) string {
	u, ok := splitURL(normalized)
	if !ok {
		return ""
	}
	return u.host
}

func matchesAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
