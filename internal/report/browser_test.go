package report

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// chromium finds Debian's chromium (or FOCUSCRAWL_CHROMIUM). Without it
// the browser test is skipped on a developer's machine and fails in CI
// (CI=true), where .ci/run installs it.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("FOCUSCRAWL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found (apt-get install -y chromium): the browser test cannot run in CI")
	}
	t.Skip("chromium not found (apt-get install -y chromium, or set FOCUSCRAWL_CHROMIUM)")
	return ""
}

// headless runs chromium on url with args and returns its stdout.
func headless(t *testing.T, bin, url string, args ...string) []byte {
	t.Helper()
	profile, err := os.MkdirTemp("", "focuscrawl-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: chromium's helpers may still write there as it exits.
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	argv := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--no-first-run", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + profile}, args...)
	cmd := exec.CommandContext(ctx, bin, append(argv, url)...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, errs.String())
	}
	return out.Bytes()
}

// TestBrowserRendersReport opens the report of two fixed crawls in
// headless Chromium: the DOM it parsed holds every chart with its legend
// and axis labels, and its screenshot is not blank and shows both crawls'
// colours.
func TestBrowserRendersReport(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	crawls := fixedCrawls(t)
	if err := WriteHTML(&b, Page{Generated: time.Now(), Crawls: crawls}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page

	dom, err := goquery.NewDocumentFromReader(bytes.NewReader(headless(t, bin, url, "--dump-dom")))
	if err != nil {
		t.Fatal(err)
	}
	if n := dom.Find("svg").Length(); n != 11 {
		t.Errorf("the browser's DOM has %d charts, want 11", n)
	}
	legend := dom.Find("svg#harvest .legend text").Map(func(_ int, s *goquery.Selection) string { return s.Text() })
	if strings.Join(legend, "|") != "shark.db|bfs.db" {
		t.Errorf("legend of the harvest chart: %q, want shark.db and bfs.db", legend)
	}
	axes := strings.Join(dom.Find(".axis-label").Map(func(_ int, s *goquery.Selection) string { return s.Text() }), "|")
	for _, want := range []string{"pages fetched", "harvest rate (relevant / fetched)", "time since the first fetch (min)", "relevant pages found", "depth (links from a seed)"} {
		if !strings.Contains(axes, want) {
			t.Errorf("axis label %q not in the DOM (%s)", want, axes)
		}
	}

	shot := filepath.Join(dir, "report.png")
	if d := os.Getenv("FOCUSCRAWL_SCREENSHOT_DIR"); d != "" {
		shot = filepath.Join(d, "report.png")
	}
	headless(t, bin, url, "--window-size=1200,1800", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	t.Logf("screenshot %s", shot)
	bounds := img.Bounds()
	if bounds.Dx() != 1200 || bounds.Dy() != 1800 {
		t.Errorf("screenshot %v, want 1200×1800", bounds.Size())
	}
	ink, crawlColour := 0, make([]int, len(crawls))
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b := rgb(img, x, y)
			if r < 240 || g < 240 || b < 240 {
				ink++
			}
			for i := range crawls {
				if near(r, g, b, Palette[i]) {
					crawlColour[i]++
				}
			}
		}
	}
	share := float64(ink) / float64(bounds.Dx()*bounds.Dy())
	t.Logf("not white: %.1f%%; pixels in each crawl's colour: %v", share*100, crawlColour)
	if share < 0.01 || share > 0.6 {
		t.Errorf("%.1f%% of the screenshot is not white: blank or garbled", share*100)
	}
	for i, n := range crawlColour {
		// Each curve, legend key and swatch of a crawl draws in its colour.
		if n < 300 {
			t.Errorf("crawl %d's colour %s covers %d pixels: its curves did not render", i, Palette[i], n)
		}
	}
}

func rgb(img image.Image, x, y int) (r, g, b int) {
	R, G, B, _ := img.At(x, y).RGBA()
	return int(R >> 8), int(G >> 8), int(B >> 8)
}

// near tells whether r, g, b is within a few steps of the #rrggbb colour.
func near(r, g, b int, hex string) bool {
	var cr, cg, cb int
	for i, p := range []*int{&cr, &cg, &cb} {
		v := 0
		for _, c := range hex[1+2*i : 3+2*i] {
			v *= 16
			switch {
			case c >= '0' && c <= '9':
				v += int(c - '0')
			default:
				v += int(c-'A') + 10
			}
		}
		*p = v
	}
	abs := func(v int) int { return max(v, -v) }
	return abs(r-cr) <= 12 && abs(g-cg) <= 12 && abs(b-cb) <= 12
}
