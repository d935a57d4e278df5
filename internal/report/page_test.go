package report

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

func renderPage(t *testing.T, p Page) (string, *goquery.Document) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, p); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), doc
}

// TestPageAccessible: every chart has an accessible name (title) and
// description, both referenced by aria-labelledby, and a table of its
// figures after it.
func TestPageAccessible(t *testing.T) {
	_, doc := renderPage(t, Page{Crawls: fixedCrawls(t)})
	charts := doc.Find("svg")
	// harvest, moving, found, rate, queue, two depth charts, a score and a
	// host chart per crawl.
	if charts.Length() != 11 {
		t.Fatalf("%d charts, want 11", charts.Length())
	}
	charts.Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("id")
		title := strings.TrimSpace(s.ChildrenFiltered("title").Text())
		desc := strings.TrimSpace(s.ChildrenFiltered("desc").Text())
		if title == "" || desc == "" {
			t.Errorf("chart %s: title %q desc %q", id, title, desc)
		}
		if role, _ := s.Attr("role"); role != "img" {
			t.Errorf("chart %s: role %q", id, role)
		}
		labelled, _ := s.Attr("aria-labelledby")
		if labelled != id+"-title "+id+"-desc" || doc.Find("#"+id+"-title").Length() != 1 {
			t.Errorf("chart %s: aria-labelledby %q", id, labelled)
		}
		tab := s.Parent().Find("details table")
		if !s.Parent().Is("figure") || tab.Length() != 1 || tab.Find("tbody tr").Length() == 0 {
			t.Errorf("chart %s: no table of its figures in its figure", id)
		}
		if s.Find(".legend text").Length() == 0 || s.Find(".axis-label").Length() == 0 && !strings.HasPrefix(id, "hosts") {
			t.Errorf("chart %s: legend or axis labels missing", id)
		}
	})
	ids := map[string]bool{}
	doc.Find("[id]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("id")
		if ids[id] {
			t.Errorf("id %q twice in the page", id)
		}
		ids[id] = true
	})
	if got := doc.Find("#crawls tbody tr").Length(); got != 2 {
		t.Errorf("crawls table: %d rows, want 2", got)
	}
	// The topic and strategy recorded show; a crawl without says so.
	row := doc.Find("#crawls tbody tr").First().Text()
	if !strings.Contains(row, "forestry") || !strings.Contains(row, "shark") {
		t.Errorf("first crawl row %q: topic or strategy missing", row)
	}
	if !strings.Contains(doc.Find("#crawls tbody tr").Eq(1).Text(), "not recorded") {
		t.Error("second crawl: unrecorded topic not shown as such")
	}
	// No parked hosts: the table says none.
	parked := doc.Find("#health table").FilterFunction(func(_ int, s *goquery.Selection) bool {
		return strings.HasPrefix(s.Find("caption").Text(), "Parked hosts")
	})
	if parked.Length() != 2 || strings.TrimSpace(parked.First().Find("tbody").Text()) != "none" {
		t.Errorf("parked hosts tables: %d, first %q", parked.Length(), parked.First().Find("tbody").Text())
	}
}

// TestPageSelfContained: no script, no external resource, no refresh in
// a file.
func TestPageSelfContained(t *testing.T) {
	html, doc := renderPage(t, Page{Crawls: fixedCrawls(t)})
	if doc.Find("script, link, img, iframe, object, embed").Length() != 0 {
		t.Error("the page loads a script or an external resource")
	}
	if m := regexp.MustCompile(`(?i)(src|href)\s*=|url\(|@import`).FindString(html); m != "" {
		t.Errorf("the page refers to something outside it: %q", m)
	}
	if doc.Find(`meta[http-equiv="refresh"]`).Length() != 0 {
		t.Error("a file report reloads itself")
	}
	_, doc = renderPage(t, Page{Crawls: fixedCrawls(t), Refresh: 7})
	if c, _ := doc.Find(`meta[http-equiv="refresh"]`).Attr("content"); c != "7" {
		t.Errorf("refresh meta = %q, want 7", c)
	}
}

// TestPageEscapes: labels and info come from users and files.
func TestPageEscapes(t *testing.T) {
	crawls := fixedCrawls(t)
	crawls[0].Label = `<b>x</b>&"y"`
	crawls[0].Info["topic"] = "<script>alert(1)</script>"
	html, doc := renderPage(t, Page{Crawls: crawls})
	if strings.Contains(html, "<b>x</b>") || strings.Contains(html, "<script>") || doc.Find("script, b").Length() != 0 {
		t.Fatal("a label or topic got into the page unescaped")
	}
	if got := doc.Find("svg#harvest .legend text").First().Text(); got != `<b>x</b>&"y"` {
		t.Errorf("legend text %q", got)
	}
}

func TestHandler(t *testing.T) {
	src := fixedCrawl(120, func(i int) bool { return i%2 == 0 }, nil)
	h := Handler([]Named{{"live.db", src}}, Options{}, Page{Refresh: 5})
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(path string) (int, string, string) {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+path, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	code, ctype, body := get("/")
	if code != 200 || !strings.HasPrefix(ctype, "text/html") || !strings.Contains(body, `http-equiv="refresh" content="5"`) || !strings.Contains(body, "120") {
		t.Fatalf("GET /: %d %s\n%.300s", code, ctype, body)
	}
	// Made again on each request: a page fetched since shows.
	src.pages = append(src.pages, src.pages[0])
	src.pages[len(src.pages)-1].FetchedAt = src.pages[len(src.pages)-2].FetchedAt.Add(time.Second)
	if _, _, body = get("/"); !strings.Contains(body, ">121<") {
		t.Error("the second request shows the same crawl: not regenerated")
	}
	// Requests at once wait their turn; each gets a whole page.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			resp, err := srv.Client().Get(srv.URL + "/")
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			if b, _ := io.ReadAll(resp.Body); !strings.HasSuffix(string(b), "</html>\n") {
				t.Error("a page served at the same time as others is not whole")
			}
		})
	}
	wg.Wait()
	if code, ctype, body = get("/harvest.svg"); code != 200 || ctype != "image/svg+xml" || !strings.HasPrefix(body, "<svg") {
		t.Errorf("GET /harvest.svg: %d %s", code, ctype)
	}
	if code, _, _ = get("/nothing.svg"); code != 404 {
		t.Errorf("GET /nothing.svg: %d, want 404", code)
	}
	src.statErr = io.ErrUnexpectedEOF
	if code, _, body = get("/"); code != 500 || !strings.Contains(body, "live.db") {
		t.Errorf("a store error: %d %q, want 500 naming the crawl", code, body)
	}
}
