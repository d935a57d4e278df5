package eval

import (
	"math"
	"testing"
)

func TestTokens(t *testing.T) {
	cases := []struct {
		in   string
		want map[string]int
	}{
		{"Hello, World! hello", map[string]int{"hello": 2, "world": 1}},
		{"森林经营，造林。", map[string]int{"森": 1, "林": 2, "经": 1, "营": 1, "造": 1}},
		{"ＡＢＣ１２３", map[string]int{"abc123": 1}},
		{"GDP增长7.5%", map[string]int{"gdp": 1, "增": 1, "长": 1, "7": 1, "5": 1}},
		{"— … “” ", map[string]int{}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got := Tokens(c.in)
			if len(got) != len(c.want) {
				t.Fatalf("Tokens(%q) = %v, want %v", c.in, got, c.want)
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Fatalf("Tokens(%q)[%q] = %d, want %d", c.in, k, got[k], v)
				}
			}
		})
	}
}

func TestPRF(t *testing.T) {
	cases := []struct {
		got, want string
		p, r, f   float64
	}{
		{"a b c d", "a b c d", 1, 1, 1},
		{"a b", "a b c d", 1, 0.5, 2.0 / 3},
		{"a b x y", "a b", 0.5, 1, 2.0 / 3},
		{"", "a", 0, 0, 0},
		{"x", "a", 0, 0, 0},
	}
	for _, c := range cases {
		p, r, f := PRF(Tokens(c.got), Tokens(c.want))
		if math.Abs(p-c.p) > 1e-9 || math.Abs(r-c.r) > 1e-9 || math.Abs(f-c.f) > 1e-9 {
			t.Errorf("PRF(%q, %q) = %v %v %v, want %v %v %v", c.got, c.want, p, r, f, c.p, c.r, c.f)
		}
	}
}
