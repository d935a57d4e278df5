package dictfile

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func write(t testing.TB, total float64, entries []Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, total, entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// walk returns the node reached by units, or 0.
func walk(tr *Trie, units ...string) uint32 {
	var n uint32
	for _, u := range units {
		if n = tr.Child(n, tr.Label(u)); n == 0 {
			return 0
		}
	}
	return n
}

func TestRoundTrip(t *testing.T) {
	entries := []Entry{
		{Units: []string{"森", "林"}, Freq: 5000},
		{Units: []string{"森", "林", "抚", "育"}, Freq: 800},
		{Units: []string{"b", "超"}, Freq: 30},
		{Units: []string{"imax"}, Freq: 5},
		{Units: []string{"a", "股"}, Freq: 40},
		{Units: []string{"𠀀", "林"}, Freq: 3}, // outside the BMP
		{Units: []string{"森", "林"}, Freq: 9}, // repeated: first frequency kept
	}
	total := 100000.0
	tr, err := Read(write(t, total, entries))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Words() != 6 || tr.Total() != total || tr.MaxDepth() != 4 {
		t.Errorf("words %d total %v depth %d", tr.Words(), tr.Total(), tr.MaxDepth())
	}
	logTotal := float32(math.Log2(total))
	tests := []struct {
		units []string
		freq  float64 // 0: not a word
	}{
		{[]string{"森", "林"}, 5000},
		{[]string{"森", "林", "抚", "育"}, 800},
		{[]string{"森", "林", "抚"}, 0},
		{[]string{"森"}, 0},
		{[]string{"b", "超"}, 30},
		{[]string{"imax"}, 5},
		{[]string{"a", "股"}, 40},
		{[]string{"𠀀", "林"}, 3},
	}
	for _, tt := range tests {
		n := walk(tr, tt.units...)
		if n == 0 {
			t.Errorf("%q: no node", tt.units)
			continue
		}
		want := float32(0)
		if tt.freq > 0 {
			want = logTotal - float32(math.Log2(tt.freq))
		}
		if got := tr.Dist(n); got != want {
			t.Errorf("%q: dist %v, want %v", tt.units, got, want)
		}
	}
	for _, miss := range [][]string{{"林"}, {"imaxx"}, {"森", "木"}, {"c"}} {
		if n := walk(tr, miss...); n != 0 {
			t.Errorf("%q: found node %d, want none", miss, n)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	tests := []struct {
		name    string
		total   float64
		entries []Entry
	}{
		{"zero total", 0, []Entry{{Units: []string{"a"}, Freq: 1}}},
		{"NaN total", math.NaN(), nil},
		{"empty word", 10, []Entry{{Units: nil, Freq: 1}}},
		{"zero frequency", 10, []Entry{{Units: []string{"a"}, Freq: 0}}},
		{"empty unit", 10, []Entry{{Units: []string{""}, Freq: 1}}},
		{"invalid rune", 10, []Entry{{Units: []string{"\xff"}, Freq: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Write(&bytes.Buffer{}, tt.total, tt.entries); err == nil {
				t.Error("Write accepted it")
			}
		})
	}
}

func TestReadRejectsMalformed(t *testing.T) {
	good := write(t, 1000, []Entry{{Units: []string{"森", "林"}, Freq: 50}, {Units: []string{"ab", "c"}, Freq: 3}})
	tests := map[string][]byte{
		"empty":        nil,
		"bad magic":    append([]byte("XXXX"), good[4:]...),
		"bad version":  append(append([]byte{}, good[:4]...), append([]byte{9}, good[5:]...)...),
		"truncated":    good[:len(good)-1],
		"trailing":     append(append([]byte{}, good...), 0),
		"header only":  good[:13],
		"freq ≥ total": write(t, 10, []Entry{{Units: []string{"a"}, Freq: 10}}),
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := Read(data); !errors.Is(err, ErrFormat) {
				t.Errorf("Read: err = %v, want ErrFormat", err)
			}
		})
	}
}

// FuzzRead checks that no input makes Read panic, and that whatever it
// accepts can be walked safely.
func FuzzRead(f *testing.F) {
	f.Add(write(f, 1000, []Entry{{Units: []string{"森", "林"}, Freq: 50}, {Units: []string{"ab", "c"}, Freq: 3}}))
	f.Add([]byte("FCZD\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Read(data)
		if err != nil {
			return
		}
		for n := 0; n < tr.Nodes(); n++ {
			_ = tr.Dist(uint32(n))
			_ = tr.Child(uint32(n), tr.Label("林"))
			_ = tr.Child(uint32(n), tr.Label("ab"))
		}
	})
}
