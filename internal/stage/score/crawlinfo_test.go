package score

import (
	"context"
	"path/filepath"
	"testing"

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
		if err := recordCrawl(ctx, fs, prof, cfg); err != nil {
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
	}
}
