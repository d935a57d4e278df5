package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// labelArchive is a crawl's archive of seven docs to label, by score
// (so the page shows them in this order, l1…l7), one of them hostile,
// and the doc of a page labelled before.
func labelArchive() []string {
	doc := func(url, title string, score float64) string {
		b, _ := json.Marshal(map[string]any{"url": url, "title": title, "content": "text of " + title,
			"score": score, "relevant": score >= 0.5})
		return string(b)
	}
	return []string{
		doc("http://a.example.cn/1", "造林模式", 0.95),
		doc(hostileURL, hostileTitle, 0.8),
		doc("http://a.example.cn/old", "Old page", 0.7),
		doc("http://a.example.cn/3", "Three", 0.6),
		`{"url":"http://down.example.cn/","error":"timeout"}`,
		doc("http://a.example.cn/4", "Four", 0.35),
		doc("http://a.example.cn/5", "Five", 0.2),
		doc("http://a.example.cn/6", "Six", 0.1),
		doc("http://a.example.cn/7", "Seven", 0.05),
	}
}

// TestBrowserLabels labels pages in headless Chromium as a user would —
// clicks, the keys y, n and u, an earlier label changed and one taken
// back, a reload — presses Export, and reads the labels.jsonl the browser
// downloaded: its lines are the labels made, earlier ones first with
// their own fields, hostile text unchanged, and the labels reader takes
// it. No dialog opens and the console stays clean: nothing in the page
// ran but its script.
func TestBrowserLabels(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	archive := writeArchive(t, "crawl.jsonl.zst", labelArchive())
	labelsFile := filepath.Join(dir, "labels.jsonl")
	os.WriteFile(labelsFile, []byte(`{"url":"http://a.example.cn/old","relevant":false,"note":"mine"}`+"\n"+
		`{"url":"http://gone.example.cn/","relevant":true}`+"\n"), 0o644)
	earlier, err := jsonl.ReadLabels(labelsFile)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sample(t, []string{archive}, SampleOptions{Pages: 20, Seed: 1, Labelled: map[string]bool{"http://a.example.cn/old": true, "http://gone.example.cn/": true}})
	var b bytes.Buffer
	err = WriteHTML(&b, Page{Crawls: fixedCrawls(t), Labelling: &Labelling{Sample: s, Earlier: earlier, Archives: []string{archive}, LabelsFile: labelsFile, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	reportFile := filepath.Join(dir, "report.html")
	if err := os.WriteFile(reportFile, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	// Not t.TempDir: chromium's helpers may still write there as it exits.
	profile, err := os.MkdirTemp("", "focuscrawl-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(profile)
	downloads := filepath.Join(profile, "downloads")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1200, 900))
	defer cancelAlloc()
	bctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()

	// Whatever a hostile title could make the page do would show here.
	var mu sync.Mutex
	var incidents []string
	dialogs := chromedp.Events(bctx, page.JavascriptDialogOpening)
	console := chromedp.Console(bctx)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			mu.Lock()
			incidents = append(incidents, "dialog: "+ev.Message)
			mu.Unlock()
			chromedp.Call(bctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			mu.Lock()
			incidents = append(incidents, fmt.Sprintf("console %s: %s", m.Type, m.Text))
			mu.Unlock()
		}
	}()

	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	radio := func(n int, value string) chromedp.CSS {
		return chromedp.CSS(fmt.Sprintf(`input[name="l%d"][value="%s"]`, n, value))
	}
	states := `Array.from(document.querySelectorAll("li[data-page]")).map(li => (li.querySelector("input:checked") || {value: "?"}).value || "-").join(" ")`

	// The bar shows only when the page's script ran: the policy let it.
	run("open the report", chromedp.Navigate("file://"+reportFile), chromedp.WaitVisible(chromedp.CSS("#label-export")))
	if got := eval(`Array.from(document.querySelectorAll("li[data-page]")).map(li => li.dataset.page).join(" ")`); !strings.Contains(got, hostileURL) {
		t.Fatalf("pages in the browser: %s", got)
	}
	if got := text("#label-count"); got != "1 relevant, 1 not relevant: 2 labels to export; 7 of the 7 pages of this sample unlabelled." {
		t.Errorf("count at first: %q", got)
	}

	// Clicks, then the keys: y on l3 moves to l4, n there to l5, u there to l6.
	run("click", chromedp.Click(radio(1, "yes")), chromedp.Click(radio(2, "no")))
	run("keys", chromedp.Focus(radio(3, "")), chromedp.KeyEvent("y"), chromedp.KeyEvent("n"), chromedp.KeyEvent("u"))
	if got := eval(`document.activeElement.name`); got != "l6" {
		t.Errorf("after y, n, u from l3 the focus is on %q, want l6", got)
	}
	// Taken back; an earlier label changed, another taken back.
	run("change", chromedp.Click(radio(4, "")), chromedp.Click(chromedp.CSS("#earlier-labels > summary")),
		chromedp.Click(radio(8, "yes")), chromedp.Click(radio(9, "")))
	want := "yes no yes - - - - yes -"
	if got := eval(states); got != want {
		t.Fatalf("marks %q, want %q", got, want)
	}
	if got := text("#label-count"); got != "3 relevant, 1 not relevant: 4 labels to export; 4 of the 7 pages of this sample unlabelled." {
		t.Errorf("count after labelling: %q", got)
	}

	// A reload keeps the marks.
	run("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#label-export")))
	if got := eval(states); got != want {
		t.Errorf("marks after a reload %q, want %q", got, want)
	}

	// Export, into a directory of our own.
	started := time.Now()
	progress := chromedp.Events(bctx, browser.DownloadProgress)
	events := true
	run("export", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads, EventsEnabled: &events})
		return err
	}), chromedp.Click(chromedp.CSS("#label-export")))
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("waiting for the download: %v", err)
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			t.Fatal("the download was canceled")
		}
		if ev.State == browser.DownloadProgressStateCompleted {
			break
		}
	}
	got, err := os.ReadFile(filepath.Join(downloads, "labels.jsonl"))
	if err != nil {
		t.Fatalf("the export: %v", err)
	}
	t.Logf("labels.jsonl:\n%s", got)
	if st := text("#label-status"); st != "Exported 4 labels as labels.jsonl." {
		t.Errorf("status %q", st)
	}

	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	wantLines := []struct {
		url, title string
		relevant   bool
	}{
		{"http://a.example.cn/old", "", true},
		{"http://a.example.cn/1", "造林模式", true},
		{hostileURL, hostileTitle, false},
		{"http://a.example.cn/3", "Three", true},
	}
	if len(lines) != len(wantLines) || !strings.HasSuffix(string(got), "\n") {
		t.Fatalf("%d lines, want %d, each ending in a newline", len(lines), len(wantLines))
	}
	for i, w := range wantLines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		at, err := time.Parse(time.RFC3339, fmt.Sprint(rec["labelled_at"]))
		if rec["url"] != w.url || rec["relevant"] != w.relevant || at.Before(started.Add(-2*time.Minute)) || err != nil {
			t.Errorf("line %d: %s, want url %q relevant %v and the time it was set", i+1, lines[i], w.url, w.relevant)
		}
		if w.title != "" && rec["title"] != w.title {
			t.Errorf("line %d: title %q, want %q", i+1, rec["title"], w.title)
		}
	}
	// The earlier label keeps its own fields, in their order.
	if !strings.HasPrefix(lines[0], `{"url":"http://a.example.cn/old","relevant":true,"note":"mine","labelled_at":"`) {
		t.Errorf("the earlier label changed: %s", lines[0])
	}
	back, err := jsonl.ReadLabels(filepath.Join(downloads, "labels.jsonl"))
	if err != nil || len(back) != 4 {
		t.Fatalf("the labels reader on the export: %d labels, %v", len(back), err)
	}
	var relevant []bool
	for _, l := range back {
		relevant = append(relevant, l.Relevant)
	}
	if !slices.Equal(relevant, []bool{true, true, false, true}) {
		t.Errorf("verdicts read back %v", relevant)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(incidents) != 0 {
		t.Errorf("the page opened a dialog or wrote to the console:\n%s", strings.Join(incidents, "\n"))
	}
}
