package urlx

import (
	"fmt"
	"sort"
	"strings"
)

// maxClassDirs bounds the directory levels of a class chain: deeper
// directories fall into the last class.
const maxClassDirs = 8

// ClassChain returns the URL classes of a normalised URL (the frontier's
// learning; seed 000's AbstractURL classes, coarsened) within its host,
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
