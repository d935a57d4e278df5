package render

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/render/testweb"
)

// TestNeedsScriptsOnTestWeb runs the auto rule over every page of the test
// web and holds it to the targets of docs/fetch.md: it picks at least 95%
// of the pages that need scripts and at most 5% of the others.
func TestNeedsScriptsOnTestWeb(t *testing.T) {
	web := testweb.New(20)
	var need, needPicked, static, staticPicked int
	reasons := map[string]map[string]int{}
	for _, p := range web.Pages() {
		rec := httptest.NewRecorder()
		web.ServeHTTP(rec, httptest.NewRequest("GET", "http://web.example"+p.Path, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: http %d", p.Path, rec.Code)
		}
		d := NeedsScripts(rec.Body.String())
		if reasons[p.Kind] == nil {
			reasons[p.Kind] = map[string]int{}
		}
		reasons[p.Kind][d.Reason]++
		if p.NeedsJS {
			need++
			if d.Render {
				needPicked++
			} else {
				t.Logf("missed %s: %+v", p.Path, d)
			}
		} else {
			static++
			if d.Render {
				staticPicked++
				t.Logf("rendered needlessly %s: %+v", p.Path, d)
			}
		}
	}
	t.Logf("reasons by kind: %v", reasons)
	recall, fpr := float64(needPicked)/float64(need), float64(staticPicked)/float64(static)
	t.Logf("auto picks %d/%d pages that need scripts (%.1f%%), %d/%d that do not (%.1f%%)", needPicked, need, 100*recall, staticPicked, static, 100*fpr)
	if recall < 0.95 || fpr > 0.05 {
		t.Errorf("recall %.3f (want ≥ 0.95), false renders %.3f (want ≤ 0.05)", recall, fpr)
	}
}

func TestNeedsScripts(t *testing.T) {
	long := ""
	for i := 0; i < 300; i++ {
		long += fmt.Sprintf("word%d ", i)
	}
	tests := []struct {
		name, html string
		render     bool
		reason     string
	}{
		{"empty shell", `<div id="root"></div><script src="/app.js"></script>`, true, "shell"},
		{"no scripts, little text", `<p>Contact us</p>`, false, "static"},
		{"upper-case script", `<DIV id=root></DIV><SCRIPT src="/app.js"></SCRIPT>`, true, "shell"},
		{"noscript without a script", `<p>Contact</p><noscript>enable JavaScript</noscript>`, false, "static"},
		{"noscript asks", `<h1>Shop</h1><p>` + long[:400] + `</p><div id="app"></div><noscript>请启用 JavaScript</noscript><script src="a.js"></script>`, true, "noscript"},
		{"long page, noscript", `<p>` + long + `</p><noscript>enable JavaScript</noscript><script src="a.js"></script>`, false, "static"},
		{"fetch into element", `<p>` + long[:500] + `</p><div id="x">Loading</div><script>fetch('/d').then(r=>r.json()).then(d=>{document.getElementById('x').innerHTML=d})</script>`, true, "script-content"},
		{"analytics", `<p>` + long[:600] + `</p><script>var s=document.createElement('script');s.src='//a/b.js';document.head.appendChild(s)</script>`, false, "static"},
		{"json island over short text", `<p>` + long[:400] + `</p><script type="application/json">{"a":"` + long + `"}</script>`, true, "data-object"},
		{"script text is not visible", `<script>var a = "` + long + `";</script><div id=app></div>`, true, "shell"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NeedsScripts(tc.html)
			if d.Render != tc.render || d.Reason != tc.reason {
				t.Errorf("got %+v, want render=%v reason=%s", d, tc.render, tc.reason)
			}
		})
	}
}
