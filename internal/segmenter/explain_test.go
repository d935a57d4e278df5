package segmenter

import (
	"strings"
	"testing"
)

// TestExplainNoCandidate: a page without a run of text long enough to
// score is explained, not a panic.
func TestExplainNoCandidate(t *testing.T) {
	if got := Explain("<html><body><p>Hi</p></body></html>", Tuning{}); !strings.Contains(got, "best: none") {
		t.Errorf("explain: %q", got)
	}
}
