package score

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

func TestRecordCrawl(t *testing.T) {
	ctx := context.Background()
	fs, err := frontier.OpenSQLite(filepath.Join(t.TempDir(), "crawl.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	prof := &topic.Profile{Name: "forestry"}
	runs := []struct {
		links, page string
		want        map[string]string
	}{
		{"shark", "vsm", map[string]string{frontier.InfoTopic: "forestry", frontier.InfoLinks: "shark", frontier.InfoPage: "vsm"}},
		{"shark", "vsm", map[string]string{frontier.InfoTopic: "forestry", frontier.InfoLinks: "shark", frontier.InfoPage: "vsm"}},
		{"heuristic", "vsm", map[string]string{frontier.InfoTopic: "forestry", frontier.InfoLinks: "shark, heuristic", frontier.InfoPage: "vsm"}},
		{"shark", "combo", map[string]string{frontier.InfoTopic: "forestry", frontier.InfoLinks: "shark, heuristic, shark", frontier.InfoPage: "vsm, combo"}},
	}
	for i, r := range runs {
		var cfg scoring.Config
		cfg.Links.Strategy, cfg.Page.Method = r.links, r.page
		if err := recordCrawl(ctx, fs, prof, cfg, 0.25, time.Date(2026, 11, 27, 10, i, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		info, err := fs.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range r.want {
			if info[k] != v {
				t.Errorf("run %d: info %s = %q, want %q", i, k, info[k], v)
			}
		}
		// Every run is listed by its start, so seed report marks a crawl resumed.
		if runs := strings.Split(info[frontier.InfoRuns], ", "); len(runs) != i+1 || runs[i] != fmt.Sprintf("2026-11-27T10:%02d:00Z", i) {
			t.Errorf("run %d: runs %q", i, info[frontier.InfoRuns])
		}
		if info[frontier.InfoThreshold] != "0.25" {
			t.Errorf("run %d: threshold %q", i, info[frontier.InfoThreshold])
		}
	}
}
