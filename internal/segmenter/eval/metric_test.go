package eval

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
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

// TestSameAuthors: bylines compare as sets of names; a leading "By" is
// ignored whatever white space follows it.
func TestSameAuthors(t *testing.T) {
	for _, c := range []struct {
		got, want string
		same      bool
	}{
		{"Scott Cunningham", "By\n\t\t\tScott Cunningham", true},
		{"Steven Mufson", "By Steven Mufson", true},
		{"Jane Doe, John Roe", "John Roe and Jane Doe", true},
		{"Jane Doe", "Jane Doe, John Roe", false},
		{"Byron Doe", "Doe", false},
	} {
		if got := SameAuthors(c.got, c.want); got != c.same {
			t.Errorf("SameAuthors(%q, %q) = %v, want %v", c.got, c.want, got, c.same)
		}
	}
}

// TestLoadAuthors: hand-checked authors replace the set's gold; an empty
// one says the page has none, so only an empty answer is right; a line
// naming a page the set does not have is an error naming the line.
func TestLoadAuthors(t *testing.T) {
	dir := t.TempDir()
	f := dir + "/a.jsonl"
	cases := []Case{{Set: "s", ID: "1", Author: "BBC News"}, {Set: "s", ID: "2", Author: "By X Y March 3"}}
	if err := os.WriteFile(f, []byte(`{"set":"s","id":"1","author":""}`+"\n"+`{"set":"s","id":"2","author":"X Y"}`+"\n"+`{"set":"t","id":"9","author":"Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := LoadAuthors(f, cases); err != nil {
		t.Fatal(err)
	}
	if !cases[0].NoAuthor || cases[1].Author != "X Y" {
		t.Fatalf("cases %+v", cases)
	}
	_, s := Score(cases, func(p record.Page) record.Doc { return record.Doc{} })
	if s.Authors != 2 || s.AuthorsOK != 1 {
		t.Errorf("authors %d ok %d, want 2 and 1 (no author right, the missing X Y wrong)", s.Authors, s.AuthorsOK)
	}
	if err := os.WriteFile(f, []byte(`{"set":"s","id":"1","author":""}`+"\n"+`{"set":"s","id":"7","author":"Q"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := LoadAuthors(f, cases); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("unknown page: err %v, want one naming line 2", err)
	}
}
