package urlx

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode"
)

// maxClassDirs bounds the directory levels of a class chain: deeper
// directories fall into the last class.
const maxClassDirs = 8

// maxNameWords bounds the file-name levels of a class chain.
const maxNameWords = 3

// ClassChain returns the URL classes of a normalised URL (the frontier's
// learning; paper 0's (docs/algorithms.md §1) AbstractURL classes, coarsened) within its host,
// coarsest first: "/" (the whole host), then each directory ("/a/",
// "/a/b/", at most 8 levels), then the file name's leading words — the
// name up to its first '.', cut at '-' and '_' — one more at each level,
// at most 3, each followed by '*' ("/a/gimp*", "/a/gimp-filter*",
// "/a/gimp-filter-noise*"), then, with a query, the last of them with the
// sorted names of the query parameters ("/a/list*?id&page"). Runs of
// digits become '#' everywhere, so /2024/05/12345.html and
// /2023/11/99.html share their classes.
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
		WriteDigitsAsHash(&b, s)
		b.WriteByte('/')
		chain = append(chain, b.String())
		levels++
	}
	file := path[dir+1:]
	names := paramNames(query)
	if file == "" && names == "" {
		return chain, nil
	}
	if stem, _, _ := strings.Cut(file, "."); stem != "" {
		words := 0
		for k := 0; k <= len(stem) && words < maxNameWords; k++ {
			if k < len(stem) && stem[k] != '-' && stem[k] != '_' {
				continue
			}
			if k == 0 || stem[k-1] == '-' || stem[k-1] == '_' {
				continue // an empty word
			}
			var w strings.Builder
			w.WriteString(b.String())
			WriteDigitsAsHash(&w, stem[:k])
			w.WriteByte('*')
			chain = append(chain, w.String())
			words++
		}
	}
	if names != "" {
		last := chain[len(chain)-1]
		if strings.HasSuffix(last, "/") && last != b.String() {
			last = b.String()
		}
		return append(chain, last+"?"+names), nil
	}
	return chain, nil
}

// WriteDigitsAsHash writes s to b with every run of ASCII digits as one
// '#' (the URL class templates; scoring's path words).
func WriteDigitsAsHash(b *strings.Builder, s string) {
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

// PathWords are the words of a URL's path, decoded and lower-cased, with
// runs of digits as '#'.
func PathWords(u string) []string {
	i := strings.Index(u, "://")
	if i < 0 {
		return nil
	}
	rest := u[i+3:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return nil
	}
	path, _, _ := strings.Cut(rest[j:], "?")
	if p, err := url.PathUnescape(path); err == nil {
		path = p
	}
	words := strings.FieldsFunc(strings.ToLower(path), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for k, w := range words {
		if w[0] >= '0' && w[0] <= '9' {
			var b strings.Builder
			WriteDigitsAsHash(&b, w) // w is valid UTF-8 (ToLower), so byte-wise is rune-wise
			words[k] = b.String()
		}
	}
	return words
}
