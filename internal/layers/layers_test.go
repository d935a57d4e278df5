package layers

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/focuscrawl/focuscrawl/"

// layer is one rung of the ladder. A package may import packages of lower
// layers; packages of its own layer only when peers is set, or when one is
// the other's subpackage (text and text/dictfile).
type layer struct {
	name  string
	peers bool
	pkgs  []string
}

// layers lists every package of the module, bottom first. A new package
// fails the test until it is placed here.
var layers = []layer{
	{name: "records", pkgs: []string{"internal/record", "internal/slicesx", "internal/suggest", "internal/version"}},
	{name: "leaf utilities", pkgs: []string{
		"internal/charset", "internal/extract", "internal/jsonl", "internal/linkauc",
		"internal/netguard", "internal/render/testweb", "internal/robotsrules", "internal/seenset", "internal/simweb", "internal/simweb/simwebtest",
		"internal/sqlitedb", "internal/text", "internal/text/dictfile", "internal/topic",
		"internal/urlx", "internal/vsm", "internal/warc",
	}},
	// Models built over the leaf utilities' vectors and URL classes, for
	// the stages to apply.
	{name: "learned models", pkgs: []string{"internal/pagemodel"}},
	// Stages do not import one another: what two stages share belongs in a
	// lower layer (record.Edge, text.Fold, version.Version).
	{name: "stages", pkgs: []string{
		"internal/dedup", "internal/fetcher", "internal/frontier", "internal/kb",
		"internal/mirrorweb", "internal/scoring", "internal/search", "internal/segmenter",
		"internal/segmenter/eval", "internal/sitemap",
	}},
	// Libraries built from several stages.
	{name: "stage combinations", pkgs: []string{"internal/render", "internal/report", "internal/siteverify"}},
	{name: "command line", peers: true, pkgs: []string{
		"internal/cli", "internal/cli/clitest", "internal/fetcher/fetchflags", "internal/render/renderflags",
	}},
	// A stage's Run, callable from Go without its command line: each
	// command parses its flags into the stage's Options and calls it.
	{name: "stage runs", pkgs: []string{
		"internal/stage/dedupe",
		"internal/stage/fetch",
		"internal/stage/score",
		"internal/stage/seed",
		"internal/stage/seedurls",
		"internal/stage/segment",
		"internal/stage/simweb",
		"internal/stage/verify",
	}},
	{name: "commands, generators and tests", peers: true, pkgs: []string{
		"cmd/dedupe", "cmd/fetch", "cmd/score", "cmd/seed", "cmd/segment", "cmd/simweb", "cmd/verify",
		"internal/text/gen", "internal/text/gen/agree", "internal/text/gen/pagetext",
		"internal/text/gen/tokenize", "scripts/bench/dedupesynth", "scripts/bench/renderweb", "scripts/trainparagraphs",
		"internal/e2e", "internal/layers", "internal/readme",
	}},
}

// TestLayers reads the non-test imports of every package of the module
// (go/build, as go list does) and checks each against the table.
func TestLayers(t *testing.T) {
	rank := map[string]int{}
	for i, l := range layers {
		for _, p := range l.pkgs {
			if _, dup := rank[p]; dup {
				t.Errorf("%s is listed twice", p)
			}
			rank[p] = i
		}
	}
	pkgs := modulePackages(t)
	if len(pkgs) < len(rank)/2 {
		t.Fatalf("found only %d packages: is the module root right?", len(pkgs))
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.path] = true
		from, ok := rank[p.path]
		if !ok {
			t.Errorf("%s is in no layer: place it in the table of %s", p.path, "internal/layers")
			continue
		}
		for _, imp := range p.imports {
			to, ok := rank[imp]
			if !ok {
				continue // reported as a package of its own
			}
			switch {
			case to < from:
			case to == from && (layers[from].peers || sub(p.path, imp) || sub(imp, p.path)):
			case to == from:
				t.Errorf("%s imports %s of its own layer (%s)", p.path, imp, layers[from].name)
			default:
				t.Errorf("%s (%s) imports %s of a higher layer (%s)", p.path, layers[from].name, imp, layers[to].name)
			}
		}
	}
	for p := range rank {
		if !seen[p] {
			t.Errorf("%s is in the table but not in the module", p)
		}
	}
}

// sub reports whether p is a subpackage of parent.
func sub(p, parent string) bool { return strings.HasPrefix(p, parent+"/") }

type pkg struct {
	path    string   // relative to the module
	imports []string // the module's own, relative to the module
}

// modulePackages lists the module's packages with their non-test imports.
func modulePackages(t *testing.T) []pkg {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	var out []pkg
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
			return filepath.SkipDir // a module of its own (scripts/bench/colly)
		}
		bp, err := build.ImportDir(path, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		p := pkg{path: filepath.ToSlash(rel)}
		for _, imp := range bp.Imports {
			if strings.HasPrefix(imp, module) {
				p.imports = append(p.imports, strings.TrimPrefix(imp, module))
			}
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}
