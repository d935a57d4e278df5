package segmenter

import (
	"strings"
	"testing"
)

func TestDiagnose(t *testing.T) {
	para := "The council voted on Tuesday to keep the old library open, after a long debate about its costs, its roof and its future. "
	page := `<html><body>
<div class="menu"><ul><li><a href="/a">Home</a></li><li><a href="/b">World news today</a></li></ul></div>
<div class="story"><h1>Library stays open</h1>
<p>` + para + `</p><p>` + para + `</p><p>` + para + `</p>
<figure><img src="x.jpg"><figcaption>The library in 1930, seen from the square.</figcaption></figure>
</div>
<div class="side"><table><tr><td>Weather in the valley is mild this week, with rain on the coast.</td></tr></table></div>
</body></html>`
	want := map[string]struct{ where, shape string }{
		"Library stays open":                         {"pruned: h1 (title)", "heading"},
		"The library in 1930, seen from the square.": {"pruned: figure/caption", "caption"},
		"World news today":                           {"outside: beside", "list item"},
		"Weather in the valley is mild this week, with rain on the coast.": {"outside: beside", "table cell"},
	}
	kept := 0
	for _, u := range Diagnose(page, Tuning{}) {
		if strings.HasPrefix(u.Text, "The council") {
			if !u.Kept || u.Where != "kept" || u.Shape != "paragraph" {
				t.Errorf("article paragraph: %+v", u)
			}
			kept++
			continue
		}
		w, ok := want[u.Text]
		if !ok {
			continue
		}
		delete(want, u.Text)
		if u.Kept || u.Where != w.where || u.Shape != w.shape {
			t.Errorf("%q: got %s / %s, want %s / %s", u.Text, u.Where, u.Shape, w.where, w.shape)
		}
	}
	if kept != 3 {
		t.Errorf("kept %d article paragraphs, want 3", kept)
	}
	for text := range want {
		t.Errorf("no unit for %q", text)
	}
}
