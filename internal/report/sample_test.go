package report

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

func TestArchiveFieldsOf(t *testing.T) {
	for _, part := range []any{archiveScore{}, archiveDoc{}} {
		if err := record.FieldsOf(part, record.ScoredDoc{}); err != nil {
			t.Error(err)
		}
	}
}

// archiveDocs is a crawl's archive: n scored docs whose scores crowd near
// 0 as on the web (most pages are off topic), judged relevant at 0.4,
// with a failed page every 50 lines, which the sample must pass over.
func archiveDocs(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var lines []string
	for i := range n {
		score := rng.Float64() * rng.Float64() * rng.Float64() * 1.6
		score = min(score, 1)
		b, _ := json.Marshal(map[string]any{"url": fmt.Sprintf("http://h%d.example.cn/p/%d", i%7, i), "title": fmt.Sprintf("Page %d", i),
			"content": strings.Repeat(fmt.Sprintf("word%d ", i), 100), "score": score, "relevant": score >= 0.4,
			"links": []map[string]any{{"url": "http://x/", "priority": 0.5}}})
		lines = append(lines, string(b))
		if i%50 == 0 {
			lines = append(lines, fmt.Sprintf(`{"url":"http://down.example.cn/%d","error":"timeout: read body"}`, i))
		}
	}
	return lines
}

func writeArchive(t *testing.T, name string, lines []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	w, err := jsonl.Append(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if err := w.WriteLine([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func sample(t *testing.T, archives []string, o SampleOptions) (*Sample, string) {
	t.Helper()
	var log bytes.Buffer
	rej, _ := jsonl.OpenRejects("", &log)
	o.Log = &log
	s, err := SampleArchives(context.Background(), archives, o, rej)
	if err != nil {
		t.Fatal(err)
	}
	return s, log.String()
}

func urls(pages []LabelPage) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.URL)
	}
	return out
}

// TestSampleStrata checks the sample against a brute-force draw: the
// threshold, the sides' shares, each band's docs and, in each band, that
// the pages shown are exactly those of lowest key.
func TestSampleStrata(t *testing.T) {
	lines := archiveDocs(3000, 1)
	archive := writeArchive(t, "crawl.jsonl.zst", lines)
	s, log := sample(t, []string{archive}, SampleOptions{Pages: 200, Seed: 9})
	if log != "" {
		t.Errorf("warnings on a sound archive: %s", log)
	}
	if len(s.Pages) != 200 || s.Docs != 3000 {
		t.Fatalf("%d pages of %d docs, want 200 of 3000", len(s.Pages), s.Docs)
	}

	type doc struct {
		url      string
		score    float64
		relevant bool
		key      uint64
	}
	var docs []doc
	minRel, maxRel, minOther := 2.0, -1.0, 2.0
	for _, l := range lines {
		var d struct {
			URL      string
			Score    *float64
			Relevant bool
		}
		json.Unmarshal([]byte(l), &d)
		if d.Score == nil {
			continue
		}
		key := xxhash.Sum64(append(binary.LittleEndian.AppendUint64(nil, 9), d.URL...))
		docs = append(docs, doc{d.URL, *d.Score, d.Relevant, key})
		if d.Relevant {
			minRel, maxRel = min(minRel, *d.Score), max(maxRel, *d.Score)
		} else {
			minOther = min(minOther, *d.Score)
		}
	}
	if !s.HasThreshold || s.Threshold != minRel {
		t.Fatalf("threshold %v (%v), want the lowest relevant score %v", s.Threshold, s.HasThreshold, minRel)
	}
	bandOf := func(d doc) (int, int) {
		side, lo, hi := SideOther, minOther, minRel
		if d.relevant {
			side, lo, hi = SideRelevant, minRel, maxRel
		}
		w := (hi - lo) / Bands
		dist := d.score - minRel
		if side == SideOther {
			dist = minRel - d.score
		}
		return side, min(Bands-1, int(dist/w))
	}
	var inBand [2][Bands][]doc
	for _, d := range docs {
		side, b := bandOf(d)
		inBand[side][b] = append(inBand[side][b], d)
	}
	shown := map[[2]int][]string{}
	for _, p := range s.Pages {
		shown[[2]int{p.Side, p.Band}] = append(shown[[2]int{p.Side, p.Band}], p.URL)
	}
	var perSide [2]int
	for _, b := range s.Bands {
		want := inBand[b.Side][b.Band]
		if int(b.Docs) != len(want) {
			t.Errorf("side %d band %d: %d docs, brute force %d", b.Side, b.Band, b.Docs, len(want))
		}
		slices.SortFunc(want, func(x, y doc) int {
			if x.key < y.key {
				return -1
			}
			return 1
		})
		var first []string
		for _, d := range want[:b.Shown] {
			first = append(first, d.url)
		}
		got := shown[[2]int{b.Side, b.Band}]
		slices.Sort(first)
		slices.Sort(got)
		if !slices.Equal(got, first) {
			t.Errorf("side %d band %d: shown %v, want the %d of lowest key %v", b.Side, b.Band, got, b.Shown, first)
		}
		perSide[b.Side] += b.Shown
		t.Logf("side %d band %d [%.3f, %.3f): %d docs, %d shown", b.Side, b.Band, b.Lo, b.Hi, b.Docs, b.Shown)
	}
	if perSide != [2]int{100, 100} {
		t.Errorf("pages per side %v, want 100 each", perSide)
	}
	// Equal shares: the band next to the threshold on the other side
	// holds few of the crawl's docs but a quarter of the side's pages.
	near := s.Bands[len(s.Bands)-Bands]
	if near.Side != SideOther || near.Band != 0 || near.Shown != min(25, int(near.Docs)) {
		t.Errorf("the band under the threshold: %+v", near)
	}
	if !slices.IsSortedFunc(s.Pages, func(a, b LabelPage) int {
		if a.Score > b.Score {
			return -1
		}
		if a.Score < b.Score {
			return 1
		}
		return 0
	}) {
		t.Error("pages not by score, highest first")
	}
	p := s.Pages[0]
	if p.Title == "" || !strings.HasPrefix(p.Excerpt, "word") || !strings.HasSuffix(p.Excerpt, "…") || len([]rune(p.Excerpt)) != maxExcerpt+1 || p.Link != p.URL {
		t.Errorf("first page %+v", p)
	}
}

// TestSampleReproducible: the same seed gives the same pages whatever the
// order of the lines; another seed another sample.
func TestSampleReproducible(t *testing.T) {
	lines := archiveDocs(1500, 2)
	a, _ := sample(t, []string{writeArchive(t, "a.jsonl", lines)}, SampleOptions{Pages: 60, Seed: 1})
	rand.New(rand.NewPCG(3, 3)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	half := len(lines) / 2
	b, _ := sample(t, []string{writeArchive(t, "b.jsonl.gz", lines[:half]), writeArchive(t, "c.jsonl.zst", lines[half:])}, SampleOptions{Pages: 60, Seed: 1})
	if !slices.Equal(urls(a.Pages), urls(b.Pages)) {
		t.Errorf("the same archive in another order gives another sample:\n%v\n%v", urls(a.Pages), urls(b.Pages))
	}
	c, _ := sample(t, []string{writeArchive(t, "a.jsonl", lines)}, SampleOptions{Pages: 60, Seed: 2})
	same := 0
	for _, u := range urls(c.Pages) {
		if slices.Contains(urls(a.Pages), u) {
			same++
		}
	}
	if same > 40 {
		t.Errorf("seed 2 shares %d of 60 pages with seed 1", same)
	}
}

// TestSampleInput: labelled URLs are not offered again but found; a URL
// archived twice counts once, with its last doc; damaged lines are
// reported with FILE:LINE and skipped; a small crawl is shown whole.
func TestSampleInput(t *testing.T) {
	lines := []string{
		`{"url":"http://a/1","final_url":"https://a/1","title":"  One\n title ","content":"first","score":0.9,"relevant":true}`,
		`{"url":"http://a/2","title":"Two","description":"described","score":0.1,"relevant":false}`,
		`{"url":"http://a/3","title":"Three","content":"three","score":0.2,"relevant":false}`,
		`{"url":"http://a/2","title":"Two again","content":"second","score":0.5,"relevant":true}`,
		`{"url":"http://a/4","title":"Four","score":0.3`,
		`not json`,
		`{"title":"no url","score":0.3,"relevant":false}`,
		`{"url":"http://a/5","error":"http 404"}`,
		`{"url":"http://a/6","title":"Six","score":0.05,"relevant":false}`,
	}
	archive := writeArchive(t, "crawl.jsonl", lines)
	s, log := sample(t, []string{archive}, SampleOptions{Pages: 10, Seed: 1, Labelled: map[string]bool{"http://a/3": true, "http://a/7": true}})
	for _, want := range []string{archive + ":5: invalid JSON", archive + ":6: not a JSON object", archive + `:7: a scored doc without "url"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Count(log, "\n") != 3 {
		t.Errorf("%d lines reported, want 3 (once, not once a pass):\n%s", strings.Count(log, "\n"), log)
	}
	if got := strings.Join(urls(s.Pages), " "); got != "http://a/1 http://a/2 http://a/6" {
		t.Fatalf("pages %s, want a/1, a/2 (its last doc) and a/6", got)
	}
	one, two := s.Pages[0], s.Pages[1]
	if one.Link != "https://a/1" || one.Title != "One title" || one.Excerpt != "first" || !one.Relevant {
		t.Errorf("page 1: %+v", one)
	}
	if two.Title != "Two again" || two.Excerpt != "second" || two.Score != 0.5 {
		t.Errorf("a URL archived twice: %+v, want its last doc", two)
	}
	if f, ok := s.Found["http://a/3"]; !ok || f.Title != "Three" || len(s.Found) != 1 {
		t.Errorf("labelled docs found: %+v", s.Found)
	}
	if s.Threshold != 0.5 {
		t.Errorf("threshold %v, want 0.5", s.Threshold)
	}

	// Without a relevant doc, every page is on the other side.
	s, _ = sample(t, []string{writeArchive(t, "x.jsonl", lines[1:3])}, SampleOptions{Pages: 10, Seed: 1})
	if s.HasThreshold || len(s.Pages) != 2 || s.Pages[0].Side != SideOther {
		t.Errorf("no relevant doc: %+v", s)
	}
}

func TestSampleMissingArchive(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.jsonl.zst")
	_, err := SampleArchives(context.Background(), []string{missing}, SampleOptions{}, nil)
	if err == nil || !strings.Contains(err.Error(), missing) || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("a missing archive: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}
