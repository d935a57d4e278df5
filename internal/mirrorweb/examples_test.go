package mirrorweb

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// TestRealwebExamples loads the real web's truth rules and its topic
// profiles, so they cannot rot: every topic of the rules has a profile
// of its name, and two of them at least are Chinese. A profile with
// examples has five URLs of each kind at least, its positive examples
// relevant by the rules and its negative ones not, each negative on a
// host of a positive one (a neighbour, not a page of another manual).
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
		if len(p.Examples.Items) > 0 {
			checkRealwebExamples(t, rules, name, p.Examples)
		}
	}
	if len(rules.Topics()) < 3 || zh < 2 {
		t.Errorf("%d topics, %d Chinese; want 3 and 2 at least", len(rules.Topics()), zh)
	}
}

func checkRealwebExamples(t *testing.T, rules *Rules, name string, ex topic.Examples) {
	t.Helper()
	if len(ex.Positive) < 5 || len(ex.Negative) < 5 {
		t.Errorf("profile %s: %d positive and %d negative examples, want 5 of each", name, len(ex.Positive), len(ex.Negative))
	}
	hosts := map[string]bool{}
	for _, e := range ex.Items {
		if e.Positive {
			if u, err := url.Parse(e.URL); err == nil {
				hosts[u.Host] = true
			}
		}
	}
	for _, e := range ex.Items {
		if e.URL == "" {
			t.Errorf("profile %s: example %q is not a URL of the real web", name, e.Text)
			continue
		}
		if got := rules.Match(name, e.URL); got != e.Positive {
			t.Errorf("profile %s: example %s: relevant by the rules %v, listed as positive %v", name, e.URL, got, e.Positive)
		}
		if u, err := url.Parse(e.URL); err != nil || !hosts[u.Host] {
			t.Errorf("profile %s: negative example %s is on no host of a positive one", name, e.URL)
		}
	}
}
