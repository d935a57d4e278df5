package simweb

import (
	"math"
	"testing"
)

func TestEvaluator(t *testing.T) {
	w := New(Config{Seed: 4, Sites: 30, NoFaults: true})
	ev, err := w.NewEvaluator("forestry", 2, 1000000)
	if err != nil {
		t.Fatal(err)
	}
	var relevant, irrelevant []string
	w.URLs(func(u string) error {
		pt, _ := w.Page(u)
		switch {
		case pt.Relevant("forestry") && pt.Kind != "redirect" && pt.Kind != "print":
			relevant = append(relevant, u)
		case !pt.Relevant("forestry") && len(irrelevant) < 10:
			irrelevant = append(irrelevant, u)
		}
		return nil
	})
	ev.Add(relevant[0])
	ev.Add(irrelevant[0])
	for _, u := range relevant {
		ev.Add(u)
	}
	ev.Add(relevant[0] + "?sid=abc") // unknown unless the site uses session ids
	ev.Add("http://nowhere.example/")
	r := ev.Result()
	pages := len(relevant) + 4
	if r.Pages != pages || r.Unknown < 1 {
		t.Errorf("pages %d unknown %d, want %d and ≥ 1", r.Pages, r.Unknown, pages)
	}
	if r.HarvestAt[2] != 0.5 {
		t.Errorf("harvest at 2: %v", r.HarvestAt[2])
	}
	if _, ok := r.HarvestAt[1000000]; ok {
		t.Error("a checkpoint past the end has a value")
	}
	if r.Found != len(relevant) || r.Exist != len(relevant) || r.Discovery != 1 {
		t.Errorf("found %d of %d (discovery %v), want all %d", r.Found, r.Exist, r.Discovery, len(relevant))
	}
	if math.Abs(r.Harvest+r.Drift-1) > 1e-9 || r.Harvest <= 0.9 {
		t.Errorf("harvest %v drift %v", r.Harvest, r.Drift)
	}
	if r.Sites != r.SitesExist-hiddenDeadSites(w, "forestry") || len(r.TopSites) == 0 {
		t.Errorf("sites %d of %d, top %v", r.Sites, r.SitesExist, r.TopSites)
	}
	if _, err := w.NewEvaluator("cooking"); err == nil {
		t.Error("unknown topic accepted")
	}
}

// hiddenDeadSites counts relevant sites with no relevant page at all
// (a dead host's pages all answer 503).
func hiddenDeadSites(w *Web, topic string) int {
	n := 0
	for _, s := range w.Sites() {
		if s.Relevance[topic] > 0 && (hasTrait(s, "down") || s.Kind == "shop") {
			n++
		}
	}
	return n
}
