package scoring

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// parseWeights reads a flag value "a=0.5,b=0.5": each name one of names
// (lower-cased first when foldCase), each weight a number ≥ 0, and not
// all of them 0. what names the parts in the error message (NAME,
// METHOD).
func parseWeights(s, what string, foldCase bool, names ...string) (map[string]float64, error) {
	out := map[string]float64{}
	total := 0.0
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		if foldCase {
			name = strings.ToLower(name)
		}
		if !ok || !slices.Contains(names, name) {
			return nil, fmt.Errorf("%q: want %s=WEIGHT with %s %s", part, what, what, listNames(names))
		}
		var w float64
		if _, err := fmt.Sscan(strings.TrimSpace(val), &w); err != nil || w < 0 || math.IsInf(w, 0) || math.IsNaN(w) {
			return nil, fmt.Errorf("%q: weight must be a number ≥ 0", part)
		}
		out[name] = w
		total += w
	}
	if total <= 0 {
		return nil, fmt.Errorf("%q: the weights sum to 0", s)
	}
	return out, nil
}

// listNames gives "a, b or c".
func listNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
