// Package slicesx holds the slice helpers that packages of different
// layers share, below them all.
package slicesx

// Unique returns the elements of s without repeats, each where it first
// stood, in a new slice (s is left as it is); nil when s is empty.
func Unique[T comparable](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	seen := make(map[T]bool, len(s))
	out := s[:0:0]
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
