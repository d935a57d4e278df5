package dedup

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// flip returns fp with n distinct random bits flipped.
func flip(r *rand.Rand, fp uint64, n int) uint64 {
	for _, b := range r.Perm(64)[:n] {
		fp ^= 1 << b
	}
	return fp
}

// TestTablesMatchBruteForce: Near finds exactly the entries a scan finds,
// for every radius, with neighbours planted at every distance around it.
func TestTablesMatchBruteForce(t *testing.T) {
	for _, k := range []int{0, 1, 2, 3, 4, 6, 8} {
		r := rand.New(rand.NewPCG(uint64(k), 1))
		tb, err := NewTables(k)
		if err != nil {
			t.Fatal(err)
		}
		var fps []uint64
		for i := 0; i < 2000; i++ {
			fp := r.Uint64()
			fps = append(fps, fp)
			tb.Add(fp)
		}
		queries := make([]uint64, 0, 200)
		for i := 0; i < 50; i++ {
			base := fps[r.IntN(len(fps))]
			for d := 0; d <= k+2; d++ { // planted neighbours at every distance
				n := flip(r, base, d)
				fps = append(fps, n)
				tb.Add(n)
			}
			queries = append(queries, flip(r, base, r.IntN(k+1)), r.Uint64())
		}
		for _, q := range queries {
			var want, got []int32
			for e, fp := range fps {
				if Hamming(fp, q) <= k {
					want = append(want, int32(e))
				}
			}
			tb.Near(q, k, func(e int32, d int) bool {
				if d != Hamming(fps[e], q) {
					t.Fatalf("k=%d: distance %d reported for %d, real %d", k, d, e, Hamming(fps[e], q))
				}
				got = append(got, e)
				return true
			})
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("k=%d: Near(%016x) = %v, scan finds %v", k, q, got, want)
			}
		}
	}
}

func TestTablesShape(t *testing.T) {
	tests := []struct{ k, tables int }{{0, 1}, {1, 2}, {3, 4}, {4, 15}, {6, 28}, {8, 45}}
	for _, tt := range tests {
		tb, err := NewTables(tt.k)
		if err != nil {
			t.Fatal(err)
		}
		if tb.NumTables() != tt.tables {
			t.Errorf("k=%d: %d tables, want %d", tt.k, tb.NumTables(), tt.tables)
		}
	}
	for _, k := range []int{-1, MaxK + 1} {
		if _, err := NewTables(k); err == nil {
			t.Errorf("NewTables(%d) accepted", k)
		}
	}
}

func TestNearStops(t *testing.T) {
	tb, _ := NewTables(3)
	for i := 0; i < 5; i++ {
		tb.Add(0xABCD)
	}
	n := 0
	tb.Near(0xABCD, 3, func(int32, int) bool { n++; return false })
	if n != 1 {
		t.Fatalf("Near went on after f returned false: %d calls", n)
	}
}

func BenchmarkNear1M(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	tb, _ := NewTables(3)
	for i := 0; i < 1000000; i++ {
		tb.Add(r.Uint64())
	}
	b.ResetTimer()
	for b.Loop() {
		tb.Near(r.Uint64(), 3, func(int32, int) bool { return true })
	}
}
