package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// eval --format text reports the same figures as the JSON object.
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
	var r simweb.Eval
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	code, txt, errs := run(t, append(args, "--format", "text", in)...)
	if code != 0 {
		t.Fatalf("text: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		fmt.Sprintf("%d pages fetched, %d relevant", r.Pages, r.Relevant),
		fmt.Sprintf("harvest rate      %.3f  (%.3f at 2)", r.Harvest, r.HarvestAt[2]),
		fmt.Sprintf("discovery rate    %.3f  (%d distinct relevant pages found of %d)", r.Discovery, r.Found, r.Exist),
		fmt.Sprintf("relevant sites    %d of %d", r.Sites, r.SitesExist),
	} {
		if !strings.Contains(txt, want) {
			t.Errorf("text report lacks %q:\n%s", want, txt)
		}
	}
	for _, s := range r.TopSites {
		if !strings.Contains(txt, s.Site) {
			t.Errorf("top site %s missing:\n%s", s.Site, txt)
		}
	}
	if code, _, _ := run(t, append(args, "--format", "xml", in)...); code != cli.ExitUsage {
		t.Errorf("--format xml: exit %d, want %d", code, cli.ExitUsage)
	}
}
