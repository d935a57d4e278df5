package frontier

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Learning configures the frontier's feedback from the crawl: every URL
// belongs to a chain of URL classes of its host (the host, each directory,
// the file-name template), each class counts the pages fetched in it and
// the sum of their labels (score's page score; failed pages 0), and the
// queue orders URLs by
//
//	priority = (1−Weight)·prior + Weight·ĥ(class)
//
// where prior is the link priority score gave and ĥ the class's smoothed
// harvest: ĥ(c) = (mass(c) + Pseudo·ĥ(parent(c))) / (fetched(c) + Pseudo),
// ĥ(parent of the host class) = Prior. Before any page of a host is
// fetched every class of it has ĥ = Prior, so the order is the prior's.
// Queued URLs of a class are ranked again when its ĥ moves by more than
// Epsilon. docs/frontier.md ("Learning from the crawl") has the details.
type Learning struct {
	Weight  float64 `json:"weight"`
	Prior   float64 `json:"prior"`
	Pseudo  float64 `json:"pseudo"`
	Epsilon float64 `json:"epsilon"`
}

// DefaultLearning is the configuration score's learned strategies ask for
// unless told otherwise.
func DefaultLearning() Learning {
	return Learning{Weight: 0.5, Prior: 0.3, Pseudo: 4, Epsilon: 0.01}
}

// Validate reports a configuration outside its ranges.
func (l *Learning) Validate() error {
	switch {
	case !(l.Weight >= 0 && l.Weight <= 1):
		return fmt.Errorf("learning weight %v: want a number in [0,1]", l.Weight)
	case !(l.Prior >= 0 && l.Prior <= 1):
		return fmt.Errorf("learning prior %v: want a number in [0,1]", l.Prior)
	case !(l.Pseudo > 0) || math.IsInf(l.Pseudo, 0):
		return fmt.Errorf("learning pseudo-count %v: want a positive number", l.Pseudo)
	case !(l.Epsilon >= 0 && l.Epsilon < 1):
		return fmt.Errorf("learning epsilon %v: want a number in [0,1)", l.Epsilon)
	}
	return nil
}

// blend is the queue priority of a URL with link priority prior in a class
// whose harvest estimate is est.
func (l *Learning) blend(prior, est float64) float64 {
	return (1-l.Weight)*prior + l.Weight*est
}

// maxClassDirs bounds the directory levels of a class chain: deeper
// directories fall into the last class.
const maxClassDirs = 8

// ClassChain returns the URL classes of a normalised URL within its host,
// coarsest first: "/" (the whole host), then each directory ("/a/",
// "/a/b/", at most 8 levels), then, when the URL names a file or has a
// query, its template: the file name cut at its first '-', '_' or '.',
// followed by '*', and the sorted names of the query parameters
// ("/a/b/plug*?id&lang"). Runs of digits become '#' everywhere, so
// /2024/05/12345.html and /2023/11/99.html share their classes.
func ClassChain(u string) ([]string, error) {
	i := strings.Index(u, "://")
	if i < 0 {
		return nil, fmt.Errorf("class of %q: not an absolute URL", u)
	}
	rest := u[i+3:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return []string{"/"}, nil
	}
	rest = rest[j:]
	if k := strings.IndexByte(rest, '#'); k >= 0 {
		rest = rest[:k]
	}
	path, query, _ := strings.Cut(rest, "?")
	chain := []string{"/"}
	dir := strings.LastIndexByte(path, '/')
	segs := strings.Split(path[1:dir+1], "/")
	var b strings.Builder
	b.WriteByte('/')
	levels := 0
	for _, s := range segs {
		if s == "" {
			continue
		}
		if levels == maxClassDirs {
			break
		}
		writeTemplate(&b, s)
		b.WriteByte('/')
		chain = append(chain, b.String())
		levels++
	}
	file := path[dir+1:]
	names := paramNames(query)
	if file == "" && names == "" {
		return chain, nil
	}
	if file != "" {
		if k := strings.IndexAny(file, "-_."); k > 0 {
			file = file[:k]
		}
		writeTemplate(&b, file)
		b.WriteByte('*')
	}
	if names != "" {
		b.WriteByte('?')
		b.WriteString(names)
	}
	return append(chain, b.String()), nil
}

// writeTemplate writes s with every run of ASCII digits as one '#'.
func writeTemplate(b *strings.Builder, s string) {
	digit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			if !digit {
				b.WriteByte('#')
			}
			digit = true
			continue
		}
		digit = false
		b.WriteByte(c)
	}
}

// paramNames gives the names of the query's parameters, each once, sorted
// and joined with '&'.
func paramNames(query string) string {
	if query == "" {
		return ""
	}
	var names []string
	for _, p := range strings.Split(query, "&") {
		name, _, _ := strings.Cut(p, "=")
		if name != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := names[:0]
	for i, n := range names {
		if i == 0 || n != names[i-1] {
			out = append(out, n)
		}
	}
	return strings.Join(out, "&")
}

// urlClass is one class as the frontier keeps it.
type urlClass struct {
	id       int64
	key      string
	parent   *urlClass
	fetched  int64
	relevant int64
	mass     float64
	// applied is the estimate the class's queued URLs carry in their
	// priority; valid tells whether it was ever set.
	applied float64
	valid   bool
	dirty   bool
	// est is the estimate computed in this transaction; estDone tells
	// whether it is.
	est     float64
	estDone bool
}

// estimate is ĥ of the class, memoised for the transaction.
func (c *urlClass) estimate(l *Learning) float64 {
	if c.estDone {
		return c.est
	}
	prior := l.Prior
	if c.parent != nil {
		prior = c.parent.estimate(l)
	}
	c.est = (c.mass + l.Pseudo*prior) / (float64(c.fetched) + l.Pseudo)
	c.estDone = true
	return c.est
}
