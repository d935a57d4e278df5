package score

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// jsonEncoded is what encoding/json writes for v without HTML escaping.
func jsonEncoded(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestAppendScored(t *testing.T) {
	tests := []record.ScoredDoc{
		{},
		{Score: 1, Relevant: true, Scores: map[string]float64{"vsm": 0.25, "rules": 1e-7, "pearson": 0, "a\"b": 3e21}},
		{Score: 0.123456789012345678, Links: []record.ScoredLink{
			{Link: record.Link{URL: "http://a/\u2028", Anchor: "x<y>&z", Context: "tab\there \x00\x1f\x7f", Block: -3, Internal: true,
				Nofollow: true, Tag: "area", Tokens: []string{"a", "", "é"}}, Priority: 0.5, Pruned: true, Inherited: -0.000001},
			{Link: record.Link{URL: "bad \xff\xfe utf8 \xe2\x82"}, Priority: 1e-9, Inherited: 1},
			{Link: record.Link{Tokens: []string{}}, Priority: math.Copysign(0, -1)},
		}},
		{Scores: map[string]float64{}, Links: []record.ScoredLink{}},
		// Contexts shared by neighbours, repeated after another, empty.
		{Links: []record.ScoredLink{
			{Link: record.Link{URL: "1", Context: "ctx \"a\"  "}}, {Link: record.Link{URL: "2", Context: "ctx \"a\"  "}},
			{Link: record.Link{URL: "3", Context: "b"}}, {Link: record.Link{URL: "4", Context: "ctx \"a\"  "}},
			{Link: record.Link{URL: "5"}}, {Link: record.Link{URL: "6", Context: "b"}}, {Link: record.Link{URL: "7", Context: "b", Anchor: "b"}},
		}},
	}
	for i, sd := range tests {
		got, ok := appendScored([]byte("prefix"), &sd)
		want := append([]byte("prefix"), jsonEncoded(t, scoredFields{Score: sd.Score, Relevant: sd.Relevant, Scores: sd.Scores, Links: sd.Links})...)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("%d: got  %s\nwant %s", i, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"\\/", "\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029é中", "\xff\xe2\x82", "<>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := jsonl.AppendString(nil, s), jsonEncoded(t, s); !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}

func FuzzAppendFloat(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 0.1, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, math.SmallestNonzeroFloat64, math.MaxFloat64, 1e-10} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if !finite(v) {
			return
		}
		if got, want := jsonl.AppendFloat(nil, v), jsonEncoded(t, v); !bytes.Equal(got, want) {
			t.Errorf("%v: got %s, want %s", v, got, want)
		}
	})
}

// TestAppendStringPositions: each byte that needs escaping, at every offset.
func TestAppendStringPositions(t *testing.T) {
	for _, sp := range []string{`"`, `\`, "\n", "\x01", "\x7f", "\u2028", "\u2029", "\xe2\x80", "\xe2\x80\xa7", "\xff", "中", "é"} {
		for pos := 0; pos < 12; pos++ {
			s := strings.Repeat("a", pos) + sp + "tail"
			if got, want := jsonl.AppendString(nil, s), jsonEncoded(t, s); !bytes.Equal(got, want) {
				t.Errorf("%q: got %s, want %s", s, got, want)
			}
		}
	}
}
