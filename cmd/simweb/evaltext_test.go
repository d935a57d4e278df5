package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
	stage "github.com/focuscrawl/focuscrawl/internal/stage/simweb"
)

// eval --format text is the report of the JSON object's figures
// (stage.EvalText, whose figures internal/stage/simweb tests); --format
// takes json or text only.
func TestEvalText(t *testing.T) {
	web := simweb.New(simweb.Config{Seed: 1, Sites: 20})
	seeds, _ := web.Seeds("forestry")
	in := filepath.Join(t.TempDir(), "urls.txt")
	os.WriteFile(in, []byte(strings.Join(seeds, "\n")+"\n"), 0o644)
	args := []string{"eval", "-q", "--sites", "20", "--sim-topic", "forestry", "--at", "2"}
	code, js, errs := run(t, append(args, in)...)
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errs)
	}
	var r stage.EvalResult
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	code, txt, errs := run(t, append(args, "--format", "text", in)...)
	if code != 0 {
		t.Fatalf("text: exit %d: %s", code, errs)
	}
	if want := stage.EvalText(r); txt != want || len(r.HarvestAt) != 1 {
		t.Errorf("text report:\n%s\nwant:\n%s", txt, want)
	}
	if code, _, _ := run(t, append(args, "--format", "xml", in)...); code != cli.ExitUsage {
		t.Errorf("--format xml: exit %d, want %d", code, cli.ExitUsage)
	}
}
