package mirrorweb

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// TestRealwebExamples loads the real web's truth rules and its topic
// profiles, so they cannot rot: every topic of the rules has a profile
// of its name, and two of them at least are Chinese.
func TestRealwebExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "topics", "realweb")
	rules, err := ReadRules(filepath.Join(dir, "truth.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	zh := 0
	for _, name := range rules.Topics() {
		p, err := topic.Load(filepath.Join(dir, name+".yaml"))
		if err != nil {
			t.Fatalf("topic %s: %v", name, err)
		}
		if p.Name != name || p.Description == "" || len(p.Keywords) == 0 {
			t.Errorf("profile %s: name %q, %d keywords", name, p.Name, len(p.Keywords))
		}
		if strings.HasPrefix(p.Language, "zh") {
			zh++
		}
	}
	if len(rules.Topics()) < 3 || zh < 2 {
		t.Errorf("%d topics, %d Chinese; want 3 and 2 at least", len(rules.Topics()), zh)
	}
}
