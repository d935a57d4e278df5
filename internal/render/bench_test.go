package render

import (
	"net/http/httptest"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/render/testweb"
)

// BenchmarkNeedsScripts is the cost auto adds to every fetched HTML page:
// the decision over a static article of the test web (~11 KB, with
// analytics snippets).
func BenchmarkNeedsScripts(b *testing.B) {
	web := testweb.New(5)
	rec := httptest.NewRecorder()
	web.ServeHTTP(rec, httptest.NewRequest("GET", "http://web.example/analytics/4", nil))
	page := rec.Body.String()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if NeedsScripts(page).Render {
			b.Fatal("rendered a static page")
		}
	}
}

// BenchmarkNeedsScriptsNoScript: a page without a script element is
// decided without being parsed.
func BenchmarkNeedsScriptsNoScript(b *testing.B) {
	web := testweb.New(5)
	rec := httptest.NewRecorder()
	web.ServeHTTP(rec, httptest.NewRequest("GET", "http://web.example/static/4", nil))
	page := rec.Body.String()
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if NeedsScripts(page).Render {
			b.Fatal("rendered a static page")
		}
	}
}
