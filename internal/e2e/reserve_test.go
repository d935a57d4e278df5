package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// prunedWeb is a web on one host whose start page has three links with
// forestry anchors, to forestry pages that link only back, and twenty
// links with anchors that say nothing of forestry, to pages of their own:
// for the forestry profile every link but the first three is under
// thresholds.link (score marks it pruned).
func prunedWeb() http.Handler {
	page := func(title, body string, links ...string) string {
		return "<!DOCTYPE html><html><head><meta charset=utf-8><title>" + title + "</title></head><body><h1>" + title +
			"</h1><p>" + body + "</p><ul>" + strings.Join(links, "") + "</ul></body></html>"
	}
	link := func(href, anchor string) string { return `<li><a href="` + href + `">` + anchor + `</a></li>` }
	forestry := []string{"森林抚育作业设计", "造林模式与宜林地", "采伐限额与迹地更新"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var links []string
		switch p := r.URL.Path; {
		case p == "/":
			var kept []string
			for i, a := range forestry {
				kept = append(kept, link(fmt.Sprintf("/f%d", i), a))
			}
			for i := range 20 {
				links = append(links, link(fmt.Sprintf("/x%d", i), fmt.Sprintf("Weather report %d", i)))
			}
			// Two blocks, so that the forestry anchors are not the
			// weather links' context.
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, strings.Replace(page("City portal", "News, sports and the weather of the week.", links...),
				"</ul>", "</ul><div><h2>林业</h2><ul>"+strings.Join(kept, "")+"</ul></div>", 1))
		case strings.HasPrefix(p, "/f") && len(p) == 3:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page(forestry[p[2]-'0'], "以小班为单位编制森林抚育作业设计，明确抚育间伐强度、保留株数和郁闭度，严格执行采伐限额，做好迹地更新和补植补造。",
				link("/", "Home"), link("/f0", forestry[0])))
		case strings.HasPrefix(p, "/x"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page("Weather "+p[2:], "Rain in the morning, sun in the afternoon, a light wind from the west.", link("/", "Home")))
		default:
			http.NotFound(w, r)
		}
	})
}

// crawlPruned runs scripts/crawl.sh on prunedWeb with the forestry profile
// for pages pages, with extra environment, and returns the URLs fetched
// in archive order and the frontier's stats.
func crawlPruned(t *testing.T, proxy string, pages int, env ...string) ([]string, frontier.Stats) {
	t.Helper()
	bin := stages(t)
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte("http://portal.test/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	archive, db := filepath.Join(dir, "scored.jsonl"), filepath.Join(dir, "crawl.db")
	profile, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	cmd := exec.Command("bash", "../../scripts/crawl.sh", profile, seeds, db, itoa(pages))
	cmd.Env = append(append(os.Environ(),
		"BIN="+bin, "ARCHIVE="+archive, "PROGRESS=off",
		"FETCH_FLAGS=-q --proxy "+proxy+" --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s",
		"SEGMENT_FLAGS=-q", "SCORE_FLAGS=-q", "ADD_FLAGS=-q", "NEXT_FLAGS=-q"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("crawl.sh %v: %v\n%s", env, err, stderr.String())
	}
	t.Logf("crawl.sh %v: %v", env, time.Since(start).Round(time.Millisecond))
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var urls []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("archive line %q: %v", clip(sc.Text()), err)
		}
		urls = append(urls, strings.TrimPrefix(r.URL, "http://portal.test"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(bin, "seed"), "stats", "--db", db, "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var st frontier.Stats
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	return urls, st
}

// TestCrawlGoesOnToItsBudget: with crawl.sh's defaults a crawl whose focus
// runs out after four pages goes on to its budget through the reserve (the
// links score pruned), and every page above the link threshold is fetched
// before any of the reserve. Dropping pruned links (the default before the
// reserve) or keeping seed next out of the reserve ends it after four.
func TestCrawlGoesOnToItsBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("crawls through the real stages")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("scripts/crawl.sh needs bash")
	}
	srv := httptest.NewServer(prunedWeb())
	defer srv.Close()
	const pages = 15
	urls, st := crawlPruned(t, srv.URL, pages)
	t.Logf("defaults: %v", urls)
	if len(urls) != pages || st.Fetched != pages || st.FetchedReserve != pages-4 {
		t.Errorf("fetched %d pages (archive %d), %d from the reserve: want %d, %d of them from the reserve",
			st.Fetched, len(urls), st.FetchedReserve, pages, pages-4)
	}
	if len(urls) >= 4 {
		first := append([]string(nil), urls[:4]...)
		for _, u := range first {
			if u != "/" && !strings.HasPrefix(u, "/f") {
				t.Errorf("the first four pages %v: want the start page and the three forestry pages before the reserve", first)
				break
			}
		}
	}
	for _, env := range [][]string{{"ADD_FLAGS=-q --pruned drop"}, {"NEXT_FLAGS=-q --reserve=false"}} {
		urls, st := crawlPruned(t, srv.URL, pages, env...)
		if len(urls) != 4 || st.Fetched != 4 || st.FetchedReserve != 0 {
			t.Errorf("%v: fetched %v (%d, %d from the reserve), want the four pages above the threshold", env, urls, st.Fetched, st.FetchedReserve)
		}
	}
}
