package linkauc

import (
	"math"
	"testing"
)

func TestAUC(t *testing.T) {
	tests := []struct {
		name     string
		pos, neg []float64
		want     float64
	}{
		{"perfect", []float64{0.9, 0.8}, []float64{0.1, 0.2, 0.3}, 1},
		{"reversed", []float64{0.1}, []float64{0.5, 0.6}, 0},
		{"all tied", []float64{0.5, 0.5}, []float64{0.5}, 0.5},
		// pairs (pos, neg): (0.6,0.4) win, (0.6,0.6) tie, (0.2,0.4) loss,
		// (0.2,0.6) loss → (1 + 0.5)/4.
		{"mixed", []float64{0.6, 0.2}, []float64{0.4, 0.6}, 0.375},
	}
	for _, tc := range tests {
		var c Counter
		for _, p := range tc.pos {
			c.Add(p, true, true)
		}
		for _, p := range tc.neg {
			c.Add(p, false, true)
		}
		c.Add(0.99, true, false) // unknown targets do not count
		r := c.Result()
		if math.Abs(r.AUC-tc.want) > 1e-12 {
			t.Errorf("%s: AUC %v, want %v", tc.name, r.AUC, tc.want)
		}
		if r.Relevant != len(tc.pos) || r.Irrelevant != len(tc.neg) || r.Unknown != 1 {
			t.Errorf("%s: counts %+v", tc.name, r)
		}
	}
	var c Counter
	c.Add(0.3, true, true)
	if r := c.Result(); r.AUC != 0 || r.MeanRelevant != 0.3 {
		t.Errorf("one class: %+v", r)
	}
}

func TestLinks(t *testing.T) {
	ls, err := Links([]byte(`{"url":"http://a/","score":0.5,"links":[{"url":"http://a/1","priority":0.25,"anchor":"x"},{"url":"http://a/2","priority":0.75,"pruned":true}]}`))
	if err != nil || len(ls) != 2 || ls[0].URL != "http://a/1" || ls[1].Priority != 0.75 {
		t.Fatalf("links %+v, %v", ls, err)
	}
	if ls, err := Links([]byte(`{"url":"http://a/"}`)); err != nil || len(ls) != 0 {
		t.Errorf("no links: %+v, %v", ls, err)
	}
	if _, err := Links([]byte(`{"links":[{"url":1}]}`)); err == nil {
		t.Error("a bad link decoded")
	}
}
