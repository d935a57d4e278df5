package urlx

import (
	"sort"
	"strings"
)

// AbstractURL returns the AbstractURL of docs/algorithms.md §1 (paper 0): the
// normalised path and file, then the names of the query parameters, each
// once and sorted, without their values:
//
//	http://host/path/file?b=2&a=1&a=3#x → /path/file?a&b
//
// Pages of one site with the same AbstractURL form an equivalence class
// that site verification assumes scores alike. Host, scheme and port are
// left out: classes are always taken within one site.
func AbstractURL(raw string) (string, error) {
	n, err := Normalize(raw)
	if err != nil {
		return "", err
	}
	rest := n[strings.Index(n, "://")+3:]
	rest = rest[strings.IndexByte(rest, '/'):]
	path, query, _ := strings.Cut(rest, "?")
	if query == "" {
		return path, nil
	}
	seen := make(map[string]bool)
	var names []string
	for _, p := range strings.Split(query, "&") {
		name := paramName(p)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
	}
	if len(names) == 0 {
		return path, nil
	}
	sort.Strings(names)
	return path + "?" + strings.Join(names, "&"), nil
}
