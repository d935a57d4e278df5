package fetch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/render"
	"github.com/focuscrawl/focuscrawl/internal/render/renderflags"
	"github.com/focuscrawl/focuscrawl/internal/render/testweb"
)

func needChromium(t *testing.T) string {
	t.Helper()
	if p, err := render.FindChromium(os.Getenv("FOCUSCRAWL_CHROMIUM")); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found (apt-get install -y chromium): the render tests cannot run in CI")
	}
	t.Skip("chromium not found")
	return ""
}

// renderRun runs the stage over the test web with --render mode and
// returns the pages by path.
func renderRun(t *testing.T, ctx context.Context, web *testweb.Web, mode render.Mode, timeout time.Duration, paths []string) (map[string]record.Page, string) {
	t.Helper()
	bin := needChromium(t)
	srv := httptest.NewServer(web)
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	cfg := fetcher.Defaults()
	cfg.Delay, cfg.Retries = 0, 0
	cfg.Resolve = map[string]string{"*:" + port: "127.0.0.1"}
	var in strings.Builder
	for _, p := range paths {
		in.WriteString("http://web.example:" + port + p + "\n")
	}
	var out, log bytes.Buffer
	err := Run(ctx, strings.NewReader(in.String()), &out, Options{Fetcher: cfg, Log: cli.NewLogger("fetch", &log, false),
		Render: renderflags.Options{Mode: mode, Config: render.Config{Chromium: bin, Tabs: 2, Timeout: timeout}}})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	pages := map[string]record.Page{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var p record.Page
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("output line: %v", err)
		}
		pages[strings.TrimPrefix(p.URL, "http://web.example:"+port)] = p
	}
	if len(pages) != len(paths) {
		t.Errorf("%d records for %d URLs", len(pages), len(paths))
	}
	return pages, log.String()
}

// TestRunRenderAuto: --render auto renders the pages of the test web that
// need scripts and leaves the others as fetched; every URL has its record.
func TestRunRenderAuto(t *testing.T) {
	web := testweb.New(1)
	var paths []string
	truth := map[string]testweb.Page{}
	for _, p := range web.Pages() {
		paths = append(paths, p.Path)
		truth[p.Path] = p
	}
	pages, log := renderRun(t, context.Background(), web, render.Auto, 15*time.Second, paths)
	for path, p := range pages {
		want := truth[path]
		if p.Error != "" {
			t.Errorf("%s: %s", path, p.Error)
		}
		if p.Rendered != want.NeedsJS {
			t.Errorf("%s (%s): rendered %v, want %v", path, want.Kind, p.Rendered, want.NeedsJS)
		}
		if p.Rendered && !strings.Contains(p.HTML, want.Markers[0]) {
			t.Errorf("%s: rendered without its content %q", path, want.Markers[0])
		}
	}
	if !pages["/ticker/0"].RenderCut {
		t.Errorf("the ticker page was not cut: %+v", pages["/ticker/0"].RenderMS)
	}
	if !strings.Contains(log, "rendered 8 pages (") {
		t.Errorf("summary: %s", log)
	}
}

// TestRunRenderInterrupted: pages rendering when the run is interrupted
// are answered, rendered or "canceled"; none is lost.
func TestRunRenderInterrupted(t *testing.T) {
	web := testweb.New(4)
	var paths []string
	for i := 0; i < 4; i++ {
		paths = append(paths, "/ticker/0?"+string(rune('a'+i)), "/delayed/"+string(rune('0'+i)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
	defer cancel()
	start := time.Now()
	// The ticker pages never settle: uninterrupted, they would hold the
	// run for the 30 s cap.
	pages, _ := renderRun(t, ctx, web, render.Always, 30*time.Second, paths)
	if d := time.Since(start); d > 12*time.Second {
		t.Errorf("interrupted run took %v to end", d)
	}
	canceled := 0
	for path, p := range pages {
		switch {
		case p.Error == fetcher.KindCanceled:
			canceled++
		case p.Error == "" && p.Rendered:
		default:
			t.Errorf("%s: neither rendered nor canceled: %q", path, p.Error)
		}
	}
	if canceled == 0 {
		t.Errorf("no page was canceled: the interruption came too late to test anything")
	}
}
