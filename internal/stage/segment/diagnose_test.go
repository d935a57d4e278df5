package segment

import (
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/segmenter"
)

func TestAttributeMisses(t *testing.T) {
	units := []segmenter.Unit{
		{Text: "the rest of the story goes here", Where: "outside: beside", Shape: "paragraph"},
		{Text: "home news sport the story", Where: "outside: far", Shape: "list item"},
		{Text: "kept words", Kept: true, Where: "kept", Shape: "paragraph"},
	}
	// Missed gold: the second paragraph and one word no unit holds.
	missed := map[string]int{"the": 2, "rest": 1, "of": 1, "story": 1, "goes": 1, "here": 1, "orphan": 1}
	tl := newTally()
	tl.attribute(units, false, missed, 16)
	if got := tl.tokens["outside: beside / paragraph"]; got != 7 {
		t.Errorf("beside paragraph took %d tokens, want 7", got)
	}
	if got := tl.tokens["outside: far / list item"]; got != 0 {
		t.Errorf("the navigation line took %d tokens, want 0 (under half of it is missed gold)", got)
	}
	if got := tl.tokens["unattributed"]; got != 1 {
		t.Errorf("unattributed %d, want 1", got)
	}
	if got, want := tl.share["unattributed"], 1.0/16; got != want {
		t.Errorf("unattributed share %v, want %v", got, want)
	}
}
