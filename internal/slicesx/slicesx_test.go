package slicesx

import (
	"slices"
	"testing"
)

func TestUnique(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{}, nil},
		{[]string{"a"}, []string{"a"}},
		{[]string{"b", "a", "b", "c", "a"}, []string{"b", "a", "c"}},
		{[]string{"x", "x", "x"}, []string{"x"}},
	} {
		in := slices.Clone(c.in)
		got := Unique(in)
		if !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("Unique(%q) = %q, want %q", c.in, got, c.want)
		}
		if !slices.Equal(in, c.in) {
			t.Errorf("Unique(%q) changed its input to %q", c.in, in)
		}
	}
	if got := Unique([]int32{3, 1, 3, 2, 1}); !slices.Equal(got, []int32{3, 1, 2}) {
		t.Errorf("Unique(int32) = %v", got)
	}
}
