package sitemap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

const urlset = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>%s/a</loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>
  <url><loc> %s/b?x=1&amp;y=2 </loc><lastmod>2024-05-02T10:00:00+08:00</lastmod></url>
  <url><loc>https://elsewhere.example.org/c</loc></url>
  <url><loc>%s/a</loc></url>
</urlset>`

func gz(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

func TestWalkRobotsIndexGzip(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private\nSITEMAP: %s/index.xml.gz # the index\n", "http://"+r.Host)
		case "/index.xml.gz":
			w.Write(gz(fmt.Sprintf(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%s/s1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
<sitemap><loc>/s2.txt</loc></sitemap><sitemap><loc>/missing.xml</loc></sitemap></sitemapindex>`, "http://"+r.Host)))
		case "/s1.xml":
			fmt.Fprintf(w, urlset, "http://"+r.Host, "http://"+r.Host, "http://"+r.Host)
		case "/s2.txt":
			fmt.Fprintf(w, "%s/t1\n\n%s/t2\n", "http://"+r.Host, "http://"+r.Host)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	var errs []string
	w := &Walker{Client: srv.Client(), OnError: func(loc string, err error) { errs = append(errs, loc+": "+err.Error()) }}
	var got []string
	lastmod := map[string]string{}
	err := w.Walk(context.Background(), []string{srv.URL + "/"}, func(f Found) error {
		got = append(got, strings.TrimPrefix(f.Loc, srv.URL))
		lastmod[strings.TrimPrefix(f.Loc, srv.URL)] = f.LastMod
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if fmt.Sprint(got) != "[/a /b?x=1&y=2 /t1 /t2]" {
		t.Errorf("URLs %v, want a, b, t1, t2 (no other site, no repeat)", got)
	}
	if lastmod["/a"] != "2024-05-01" || lastmod["/b?x=1&y=2"] != "2024-05-02T10:00:00+08:00" {
		t.Errorf("lastmod %v", lastmod)
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "missing.xml: HTTP 404") {
		t.Errorf("errors %v, want the missing sitemap only", errs)
	}
}

func TestWalkFallbackAndLimits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap.xml":
			fmt.Fprint(w, `<sitemapindex><sitemap><loc>/x.xml</loc></sitemap><sitemap><loc>/y.xml</loc></sitemap></sitemapindex>`)
		case "/x.xml", "/y.xml":
			fmt.Fprintf(w, `<urlset><url><loc>%s</loc></url></urlset>`, r.URL.Path+"-page")
		default:
			http.NotFound(w, r) // no robots.txt
		}
	}))
	defer srv.Close()
	var errs int
	w := &Walker{Client: srv.Client(), MaxSitemaps: 2, OnError: func(string, error) { errs++ }}
	var got []string
	if err := w.Walk(context.Background(), []string{srv.URL}, func(f Found) error { got = append(got, f.Loc); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasSuffix(got[0], "/x.xml-page") || errs != 1 {
		t.Errorf("got %v with %d errors, want one URL and the third sitemap refused", got, errs)
	}
	// An emit error stops the walk and comes back.
	stop := errors.New("stop")
	w = &Walker{Client: srv.Client()}
	if err := w.Walk(context.Background(), []string{srv.URL + "/sitemap.xml"}, func(Found) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("err %v, want the emit error", err)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		in    []byte
		urls  int
		maps  int
		err   error
		limit int64
	}{
		{"urlset", []byte(fmt.Sprintf(urlset, "http://a", "http://a", "http://a")), 4, 0, nil, 0},
		{"gzip", gz(fmt.Sprintf(urlset, "http://a", "http://a", "http://a")), 4, 0, nil, 0},
		{"index", []byte(`<?xml version="1.0"?><sitemapindex><sitemap><loc>http://a/1.xml</loc></sitemap></sitemapindex>`), 0, 1, nil, 0},
		{"text", []byte("\ufeffhttp://a/1\nhttps://a/2\n"), 2, 0, nil, 0},
		{"html", []byte("<html><body>hi</body></html>"), 0, 0, ErrNotSitemap, 0},
		{"prose", []byte("hello world\n"), 0, 0, ErrNotSitemap, 0},
		{"too large", gz(strings.Repeat(" ", 5000) + "<urlset></urlset>"), 0, 0, ErrTooLarge, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var urls, maps int
			err := ParseLimit(bytes.NewReader(tt.in), Handler{
				URL:     func(Entry) error { urls++; return nil },
				Sitemap: func(Entry) error { maps++; return nil },
			}, tt.limit)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil || urls != tt.urls || maps != tt.maps {
				t.Errorf("urls %d maps %d err %v, want %d %d", urls, maps, err, tt.urls, tt.maps)
			}
		})
	}
}

func TestLocalFileAndTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.xml.gz")
	os.WriteFile(path, gz(fmt.Sprintf(urlset, "http://a.cn", "http://a.cn", "http://a.cn")), 0o644)
	var n int
	if err := (&Walker{}).Walk(context.Background(), []string{path}, func(Found) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("local file gave %d URLs, want 3 (any site, no repeat)", n)
	}
	for _, s := range []string{"2024-05-01", "2024-05-01T10:00:00+08:00", "2024-05-01T10:00+08:00", "2024-05-01T10:00:00.5Z"} {
		if _, ok := ParseTime(s); !ok {
			t.Errorf("ParseTime(%q) failed", s)
		}
	}
	if _, ok := ParseTime("yesterday"); ok {
		t.Error("ParseTime(yesterday) succeeded")
	}
}
