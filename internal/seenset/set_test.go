package seenset

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestAgainstMap feeds random keys with many duplicates and checks every
// answer against a map, under budgets that force spills and merges.
func TestAgainstMap(t *testing.T) {
	tests := []struct {
		name       string
		opts       Options
		adds       int
		distinct   int
		wantSpill  bool
		wantMerges bool
	}{
		{"in memory", Options{Memory: 64 << 20}, 20000, 5000, false, false},
		{"spills", Options{Memory: 64 << 10, MaxRuns: 100}, 20000, 10000, true, false},
		{"spills and merges", Options{Memory: 32 << 10, MaxRuns: 2}, 20000, 10000, true, true},
		{"tiny budget", Options{Memory: 1, MaxRuns: 3}, 600, 400, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.TempDir = t.TempDir()
			s := New(tt.opts)
			defer s.Close()
			rng := rand.New(rand.NewPCG(1, uint64(tt.distinct)))
			oracle := make(map[string]bool)
			for i := 0; i < tt.adds; i++ {
				n := rng.IntN(tt.distinct)
				key := fmt.Sprintf("https://site%d.example/path/%d?id=%d", n%97, n, n*7)
				added, err := s.AddString(key)
				if err != nil {
					t.Fatal(err)
				}
				if added == oracle[key] {
					t.Fatalf("add #%d %q: added=%v, but seen before=%v", i, key, added, oracle[key])
				}
				oracle[key] = true
			}
			st := s.Stats()
			if st.Keys != int64(len(oracle)) || s.Len() != int64(len(oracle)) {
				t.Fatalf("Keys = %d, want %d", st.Keys, len(oracle))
			}
			if (st.Spills > 0) != tt.wantSpill || (st.Merges > 0) != tt.wantMerges {
				t.Fatalf("stats %+v: want spill=%v merges=%v", st, tt.wantSpill, tt.wantMerges)
			}
			for key := range oracle {
				if ok, err := s.Contains([]byte(key)); !ok || err != nil {
					t.Fatalf("Contains(%q) = %v, %v after adding it", key, ok, err)
				}
			}
			for i := 0; i < 2000; i++ {
				key := fmt.Sprintf("https://absent%d.example/", i)
				if ok, err := s.Contains([]byte(key)); ok || err != nil {
					t.Fatalf("Contains(%q) = %v, %v: never added", key, ok, err)
				}
			}
		})
	}
}

// TestAwkwardKeys covers keys that are prefixes of one another, empty,
// binary, and bigger than an arena chunk, across a spill.
func TestAwkwardKeys(t *testing.T) {
	keys := [][]byte{
		{}, []byte("a"), []byte("a\x00"), []byte("ab"), []byte("a\xff"),
		bytes.Repeat([]byte("x"), 3<<20), bytes.Repeat([]byte("x"), 3<<20+1),
		[]byte(strings.Repeat("长", 1000)),
	}
	s := New(Options{Memory: 1, TempDir: t.TempDir()})
	defer s.Close()
	for round := 0; round < 2; round++ {
		for _, k := range keys {
			added, err := s.Add(k)
			if err != nil {
				t.Fatal(err)
			}
			if added != (round == 0) {
				t.Fatalf("round %d: Add(%.10q) = %v", round, k, added)
			}
		}
	}
	if st := s.Stats(); st.Spills == 0 {
		t.Fatalf("expected spills with a 1-byte budget, got %+v", st)
	}
}

func TestCloseRemovesSpillFiles(t *testing.T) {
	dir := t.TempDir()
	s := New(Options{Memory: 1, TempDir: dir})
	for i := 0; i < 100; i++ {
		if _, err := s.AddString(fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) == 0 {
		t.Fatal("no spill directory was created")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("spill files left after Close: %v", ents)
	}
	if _, err := s.AddString("x"); err != ErrClosed {
		t.Fatalf("Add after Close: %v, want ErrClosed", err)
	}
}

// TestMemoryBudget checks that the in-memory part stays within budget.
func TestMemoryBudget(t *testing.T) {
	const budget = 512 << 10
	s := New(Options{Memory: budget, TempDir: t.TempDir()})
	defer s.Close()
	for i := 0; i < 30000; i++ {
		if _, err := s.AddString(fmt.Sprintf("http://host%d.example/some/longer/path/%d.html", i%1000, i)); err != nil {
			t.Fatal(err)
		}
		if b := s.Stats().MemoryBytes; b > budget {
			t.Fatalf("after %d keys the in-memory part holds %d bytes, budget %d", i+1, b, budget)
		}
	}
	if s.Stats().Spills == 0 {
		t.Fatal("no spill")
	}
}

func BenchmarkAdd(b *testing.B) {
	for _, mem := range []int64{DefaultMemory, 4 << 20} {
		b.Run(fmt.Sprintf("memory=%dMiB", mem>>20), func(b *testing.B) {
			s := New(Options{Memory: mem, TempDir: b.TempDir()})
			defer s.Close()
			key := make([]byte, 0, 128)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				// Scattered keys from 2^22 values: new at first, then
				// more and more duplicates.
				n := uint64(i) * 0x9E3779B97F4A7C15 >> 42
				key = fmt.Appendf(key[:0], "https://www.site%d.example.cn/news/%d/page-%d.html", n%20000, n%977, n)
				if _, err := s.Add(key); err != nil {
					b.Fatal(err)
				}
			}
			st := s.Stats()
			b.ReportMetric(float64(st.Spills), "spills")
		})
	}
}

// TestSpillErrorSticks: when the spill directory cannot be made, Add says
// so, and keeps saying so rather than answering wrongly.
func TestSpillErrorSticks(t *testing.T) {
	notADir := t.TempDir() + "/file"
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Memory: 1, TempDir: notADir})
	defer s.Close()
	var first error
	for i := 0; i < 10 && first == nil; i++ {
		_, first = s.AddString(fmt.Sprint(i))
	}
	if first == nil {
		t.Fatal("no error spilling into a file")
	}
	if _, err := s.AddString("0"); err != first {
		t.Fatalf("after a failed spill Add returned %v, want %v", err, first)
	}
	if _, err := s.Contains([]byte("0")); err != first {
		t.Fatalf("after a failed spill Contains returned %v, want %v", err, first)
	}
}
