package main

import (
	"os"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/scoring"
)

// The strategies table of docs/score.md lies between these lines.
const (
	strategiesBegin = "<!-- strategies: from the registry (internal/scoring/strategy.go); go generate ./cmd/score writes it -->"
	strategiesEnd   = "<!-- end of strategies -->"
)

// strategiesTable is docs/score.md's table of the link strategies: each
// registered one, its kind and its parameters, as the registry has them.
func strategiesTable() string {
	var b strings.Builder
	b.WriteString("| strategy | kind | parameters (flags) | ranks links by |\n|---|---|---|---|\n")
	flags := func(names []string) string {
		if len(names) == 0 {
			return "—"
		}
		return "`--" + strings.Join(names, "` `--") + "`"
	}
	var learn []string
	for _, p := range scoring.AllParams() {
		for _, s := range p.Strategies {
			if s == "+learned" {
				learn = append(learn, p.Name)
			}
		}
	}
	for _, s := range scoring.Strategies() {
		name, kind := "`"+s.Name+"`", "per doc"
		if s.Name == scoring.DefaultStrategy {
			name += " (default)"
		}
		if s.Graph {
			kind = "graph (`--batch` or `--db`)"
		}
		b.WriteString("| " + name + " | " + kind + " | " + flags(s.Params) + " | " + s.About + " |\n")
	}
	b.WriteString("| `S+learned` | per doc | S's and " + flags(learn) + " | S's priorities blended with the learned model's |\n")
	return b.String()
}

// TestDocsStrategies: docs/score.md lists the strategies the registry
// holds, with their parameters (go generate ./cmd/score writes the table).
func TestDocsStrategies(t *testing.T) {
	const path = "../../docs/score.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, strategiesBegin), strings.Index(doc, strategiesEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no strategies table between %q and %q", path, strategiesBegin, strategiesEnd)
	}
	want := strategiesTable()
	got := doc[i+len(strategiesBegin)+1 : j]
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("%s: the strategies table is not the registry's; go generate ./cmd/score writes it:\n%s", path, want)
	}
	if err := os.WriteFile(path, []byte(doc[:i+len(strategiesBegin)+1]+want+doc[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
