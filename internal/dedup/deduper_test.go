package dedup

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

// doc makes a scored doc.
func doc(url, content string, score float64, published string) *record.ScoredDoc {
	return &record.ScoredDoc{Doc: record.Doc{URL: url, Content: content, Published: published, Title: "t " + url}, Score: score}
}

// run feeds docs through a Deduper and returns what came out, as
// "url" for kept records (with "<-dup,dup" when they have duplicates) and
// "url>kept" for dropped ones.
func run(t *testing.T, o Options, j Journal, docs ...*record.ScoredDoc) ([]string, *Deduper) {
	t.Helper()
	d, err := New(o, j)
	if err != nil {
		t.Fatal(err)
	}
	f := newFP()
	var outs []Out
	for _, sd := range docs {
		if outs, err = d.Add(outs, NewItem(f, sd)); err != nil {
			t.Fatal(err)
		}
	}
	if outs, err = d.Flush(outs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range outs {
		switch {
		case o.Kept && len(o.Rec.Duplicates) > 0:
			got = append(got, o.Rec.URL+"<-"+strings.Join(o.Rec.Duplicates, ","))
		case o.Kept:
			got = append(got, o.Rec.URL)
		default:
			got = append(got, o.Rec.URL+">"+o.Rec.DuplicateOf)
		}
	}
	return got, d
}

var (
	textAshort = join(articleZH...)
	textA      = textAshort + "\n\n附件：森林抚育作业设计表" // a line longer
	textAtrad  = text.Traditional(textAshort)
	textB      = join(otherZH...)
	textE      = join(articleEN...)
)

func TestDeduperPolicies(t *testing.T) {
	docs := []*record.ScoredDoc{
		doc("http://a/1", textAshort, 0.5, "2024-01-02"),
		doc("http://b/1", textB, 0.9, "2024-01-01"),
		doc("http://a/2", textA, 0.4, "2023-12-30"),
		doc("http://a/3", textAtrad, 0.8, "2024-02-01"),
		doc("http://e/1", textE, 0.7, ""),
	}
	tests := []struct {
		keep Policy
		want []string
	}{
		{KeepFirst, []string{"http://a/1<-http://a/2,http://a/3", "http://a/2>http://a/1", "http://a/3>http://a/1", "http://b/1", "http://e/1"}},
		{KeepLongest, []string{"http://a/2<-http://a/1,http://a/3", "http://a/1>http://a/2", "http://a/3>http://a/2", "http://b/1", "http://e/1"}},
		{KeepBestScore, []string{"http://a/3<-http://a/2,http://a/1", "http://a/2>http://a/3", "http://a/1>http://a/3", "http://b/1", "http://e/1"}},
		{KeepNewest, []string{"http://a/3<-http://a/2,http://a/1", "http://a/2>http://a/3", "http://a/1>http://a/3", "http://b/1", "http://e/1"}},
	}
	for _, tt := range tests {
		t.Run(tt.keep.String(), func(t *testing.T) {
			o := DefaultOptions()
			o.K, o.Keep, o.Window, o.EmitDups = 6, tt.keep, -1, true
			got, _ := run(t, o, nil, docs...)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestDeduperWindow: a group leaves the window after Window more docs; a
// later copy is dropped against the written record, and a better one is
// counted.
func TestDeduperWindow(t *testing.T) {
	o := DefaultOptions()
	o.K, o.Keep, o.Window = 6, KeepLongest, 1
	got, d := run(t, o, nil,
		doc("http://a/1", textAshort, 0, ""),
		doc("http://b/1", textB, 0, ""),
		doc("http://a/2", textA, 0, ""), // longer, but a/1 is written already
	)
	want := []string{"http://a/1", "http://a/2>http://a/1", "http://b/1"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if st := d.Stats(); st.LateBetter != 1 || st.Kept != 2 || st.Dropped != 1 {
		t.Fatalf("stats %+v", st)
	}
	// Window 0 writes at once.
	o.Window = 0
	got, _ = run(t, o, nil, doc("http://a/1", textA, 0, ""), doc("http://a/2", textA, 0, ""))
	if want := []string{"http://a/1", "http://a/2>http://a/1"}; !slices.Equal(got, want) {
		t.Fatalf("window 0: got %v, want %v", got, want)
	}
}

// TestDeduperExpire: groups held longer than the limit leave, whatever
// the window.
func TestDeduperExpire(t *testing.T) {
	o := DefaultOptions()
	o.Window = -1
	d, _ := New(o, nil)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d.now = func() time.Time { return clock }
	f := newFP()
	d.Add(nil, NewItem(f, doc("http://a/1", textA, 0, "")))
	clock = clock.Add(5 * time.Second)
	d.Add(nil, NewItem(f, doc("http://b/1", textB, 0, "")))
	outs, _ := d.Expire(nil, clock.Add(-3*time.Second))
	if len(outs) != 1 || outs[0].Rec.URL != "http://a/1" {
		t.Fatalf("expired %v, want a/1 only", outs)
	}
	outs, _ = d.Flush(nil)
	if len(outs) != 1 || outs[0].Rec.URL != "http://b/1" {
		t.Fatalf("flushed %v, want b/1", outs)
	}
}

func TestDeduperKeys(t *testing.T) {
	withFinal := doc("http://x/moved", textE, 0, "")
	withFinal.FinalURL = "http://a/1"
	canon := doc("http://mirror/9", textA+"\n\n附件：造林作业设计表", 0, "")
	canon.Canonical = "http://a/1"
	badCanon := doc("http://a/7", textB, 0, "") // canonical to a page of another text
	badCanon.Canonical = "http://a/1"
	homeCanon := doc("http://a/8", textE, 0, "") // canonical to the home page
	homeCanon.Canonical = "http://a/"
	tests := []struct {
		name string
		docs []*record.ScoredDoc
		want []string
		how  string
	}{
		{"same URL normalised", []*record.ScoredDoc{doc("http://A/1#top", textA, 0, ""), doc("http://a/1", textB, 0, "")},
			[]string{"http://A/1#top<-http://a/1", "http://a/1>http://A/1#top"}, "url"},
		{"final URL", []*record.ScoredDoc{doc("http://a/1", textA, 0, ""), withFinal},
			[]string{"http://a/1<-http://x/moved", "http://x/moved>http://a/1"}, "url"},
		{"canonical link", []*record.ScoredDoc{doc("http://a/1", textA, 0, ""), canon},
			[]string{"http://a/1<-http://mirror/9", "http://mirror/9>http://a/1"}, "url"},
		{"canonical to another text ignored", []*record.ScoredDoc{doc("http://a/1", textA, 0, ""), badCanon},
			[]string{"http://a/1", "http://a/7"}, ""},
		{"canonical to the home page ignored", []*record.ScoredDoc{doc("http://a/", textA, 0, ""), homeCanon},
			[]string{"http://a/", "http://a/8"}, ""},
		{"exact content", []*record.ScoredDoc{doc("http://a/1", "短文", 0, ""), doc("http://b/1", " 短文 ", 0, "")},
			[]string{"http://a/1<-http://b/1", "http://b/1>http://a/1"}, "exact"},
		{"short texts are not near copies", []*record.ScoredDoc{doc("http://a/1", "森林防火", 0, ""), doc("http://b/1", "森林防火。", 0, "")},
			[]string{"http://a/1", "http://b/1"}, ""},
		{"empty contents are not copies", []*record.ScoredDoc{doc("http://a/1", "", 0, ""), doc("http://b/1", "  ", 0, "")},
			[]string{"http://a/1", "http://b/1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			o.EmitDups = true
			got, d := run(t, o, nil, tt.docs...)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			st := d.Stats()
			how := map[string]int{"url": st.ByURL, "exact": st.ByExact}
			if tt.how != "" && how[tt.how] != 1 {
				t.Fatalf("matched by %+v, want by %s", st, tt.how)
			}
		})
	}
}

// TestDeduperEuclid: the euclid method finds the copy with a paragraph
// dropped and keeps distinct texts apart.
func TestDeduperEuclid(t *testing.T) {
	o := DefaultOptions()
	o.Method = MethodEuclid
	d, err := New(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := newFP()
	f.VectorTerms = 128
	var outs []Out
	for _, sd := range []*record.ScoredDoc{doc("http://a/1", textAshort, 0, ""), doc("http://b/1", textB, 0, ""), doc("http://a/2", textA, 0, "")} {
		outs, _ = d.Add(outs, NewItem(f, sd))
	}
	if _, err := d.Flush(outs); err != nil {
		t.Fatal(err)
	}
	if st := d.Stats(); st.ByNear != 1 || st.Kept != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestOptionsCheck(t *testing.T) {
	bad := []Options{{Method: "minhash"}, {K: 9}, {Method: MethodEuclid, CandidateK: 8, MaxDistance: 0}, {Method: MethodEuclid, CandidateK: 12, MaxDistance: 0.5}}
	for _, o := range bad {
		if _, err := New(o, nil); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
	for _, s := range []string{"first", "longest", "best-score", "newest"} {
		if p, err := ParsePolicy(s); err != nil || p.String() != s {
			t.Errorf("ParsePolicy(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := ParsePolicy("oldest"); err == nil {
		t.Error("ParsePolicy(oldest) accepted")
	}
}

func TestParseTime(t *testing.T) {
	for _, s := range []string{"2024-03-05", "2024-03-05 08:00:00", "2024-03-05T08:00:00Z", "2024/03/05", "2024年3月5日"} {
		if tm := ParseTime(s); tm.Year() != 2024 || tm.Month() != 3 || tm.Day() != 5 {
			t.Errorf("ParseTime(%q) = %v", s, tm)
		}
	}
	if !ParseTime("yesterday").IsZero() {
		t.Error("ParseTime(yesterday) not zero")
	}
}

func ExampleDeduper() {
	f := NewFingerprinter(nil, nil)
	_ = f
	fmt.Println(FormatFingerprint(0x0123456789abcdef))
	// Output: 0123456789abcdef
}

// TestDeduperDroppedParagraph: a copy that lost a paragraph is a near
// copy whether it comes before or after the whole text (through the
// parts), and two texts that each lost a different paragraph are not
// matched part against part.
func TestDeduperDroppedParagraph(t *testing.T) {
	cut := func(i int) string { return join(without(articleZH, i)...) }
	tests := []struct {
		name string
		docs []*record.ScoredDoc
		want []string
	}{
		{"whole text first", []*record.ScoredDoc{doc("http://a/1", textAshort, 0, ""), doc("http://b/1", cut(2), 0, "")},
			[]string{"http://a/1<-http://b/1"}},
		{"cut copy first", []*record.ScoredDoc{doc("http://b/1", cut(4), 0, ""), doc("http://a/1", textAshort, 0, "")},
			[]string{"http://b/1<-http://a/1"}},
	}
	for _, tt := range tests {
		if got, _ := run(t, DefaultOptions(), nil, tt.docs...); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	// Parts never meet parts: two cut copies stay two records unless
	// the second's whole SimHash is one of the first's parts, or one of
	// its parts is near the first's whole SimHash.
	f := newFP()
	a, b := f.Print(cut(0)), f.Print(cut(5))
	meet := Hamming(a.SimHash, b.SimHash) <= 3 || slices.Contains(a.Parts, b.SimHash)
	for _, p := range b.Parts {
		meet = meet || Hamming(a.SimHash, p) <= 3
	}
	got, _ := run(t, DefaultOptions(), nil, doc("http://c/1", cut(0), 0, ""), doc("http://c/2", cut(5), 0, ""))
	if merged := len(got) == 1; merged != meet {
		t.Errorf("two cut copies: %v, but whole-or-part distances within 3: %v", got, meet)
	}
}
