package readme

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// firstScreen is how many lines of the README a newcomer reads before
// deciding: what it is, the two commands, the first crawl, where to go
// next must all start within it.
const firstScreen = 80

// datedFigure is a measurement (a date, a rate, megabytes, a harvest) beside
// the instructions; defaults such as 256 MiB are not figures. Measurements
// live in docs/benchmarks.md, where they are dated and re-measured, not in
// the manual (issue 27, item 9).
var datedFigure = regexp.MustCompile(`20[0-9]{2}-[0-9]{2}-[0-9]{2}|[0-9][0-9,.]* ?(pages/s|docs/s|MB)\b|harvest (rate )?[0-9.]+[0-9]`)

// TestREADMEFirstScreen: the README opens with make demo and make test,
// then says what focuscrawl is, runs a first crawl and points onwards,
// all on its first screen; and no dated figure stands among its
// instructions.
func TestREADMEFirstScreen(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	bs, _ := blocks(t, "../../README.md")
	if len(bs) == 0 {
		t.Fatal("README.md has no code block")
	}
	var first []string
	for _, l := range strings.Split(strings.TrimSpace(bs[0].text), "\n") {
		first = append(first, strings.Fields(l)[0]+" "+strings.Fields(l)[1])
	}
	if strings.Join(first, "; ") != "make demo; make test" {
		t.Errorf("the README's first block runs %q; want make demo, then make test", first)
	}
	lines := strings.Split(string(b), "\n")
	for _, h := range []string{"## A first crawl", "## Where to go next"} {
		at := -1
		for i, l := range lines {
			if strings.HasPrefix(l, h) {
				at = i + 1
				break
			}
		}
		if at < 0 || at > firstScreen {
			t.Errorf("README.md: %q starts at line %d; want it within the first %d lines", h, at, firstScreen)
		}
	}
	inBlock := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			inBlock = !inBlock
			continue
		}
		if m := datedFigure.FindString(l); m != "" && !inBlock {
			t.Errorf("README.md:%d: figure %q among the instructions; measured figures go to docs/benchmarks.md", i+1, m)
		}
	}
}
