package vsm

import (
	"math"
	"testing"
)

func vec(m map[string]float64) Vector { return FromMap(m) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestMeasures(t *testing.T) {
	tests := []struct {
		name                   string
		a, b                   Vector
		dot, cos, pear, euclid float64
	}{
		{
			// a=(1,2,0) b=(2,0,2) over (x,y,z): dot 2; |a|=√5, |b|=√8;
			// cos = 2/√40. Pearson over the union (x,y,z): means 1 and 4/3;
			// n·Σxy−ΣxΣy = 3·2−3·4 = −6; n·Σx²−(Σx)² = 15−9 = 6;
			// n·Σy²−(Σy)² = 24−16 = 8; r = −6/√48. Euclid: √(1+4+4) = 3.
			name: "partial overlap",
			a:    vec(map[string]float64{"x": 1, "y": 2}),
			b:    vec(map[string]float64{"x": 2, "z": 2}),
			dot:  2, cos: 2 / math.Sqrt(40), pear: -6 / math.Sqrt(48), euclid: 3,
		},
		{
			// Proportional vectors: cos 1, Pearson 1 over (x,y), distance
			// |(1,1)| = √2.
			name: "same direction",
			a:    vec(map[string]float64{"x": 1, "y": 2}),
			b:    vec(map[string]float64{"x": 2, "y": 4}),
			dot:  10, cos: 1, pear: 1, euclid: math.Sqrt(5),
		},
		{
			// Disjoint: dot 0, cos 0; union (x,y): a=(1,0) b=(0,1): r=−1.
			name: "disjoint",
			a:    vec(map[string]float64{"x": 1}),
			b:    vec(map[string]float64{"y": 1}),
			dot:  0, cos: 0, pear: -1, euclid: math.Sqrt(2),
		},
		{
			name: "empty",
			a:    Vector{},
			b:    vec(map[string]float64{"y": 1}),
			dot:  0, cos: 0, pear: 0, euclid: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Dot(tc.a, tc.b); !near(got, tc.dot) {
				t.Errorf("Dot = %v, want %v", got, tc.dot)
			}
			if got := Cosine(tc.a, tc.b); !near(got, tc.cos) {
				t.Errorf("Cosine = %v, want %v", got, tc.cos)
			}
			if got := Pearson(tc.a, tc.b); !near(got, tc.pear) {
				t.Errorf("Pearson = %v, want %v", got, tc.pear)
			}
			if got := Euclidean(tc.a, tc.b); !near(got, tc.euclid) {
				t.Errorf("Euclidean = %v, want %v", got, tc.euclid)
			}
			// Every measure is symmetric.
			if !near(Cosine(tc.a, tc.b), Cosine(tc.b, tc.a)) || !near(Pearson(tc.a, tc.b), Pearson(tc.b, tc.a)) {
				t.Error("measure not symmetric")
			}
		})
	}
}

func TestNormalizeEuclidCosine(t *testing.T) {
	// For unit vectors d² = 2 − 2·cos.
	a := vec(map[string]float64{"a": 3, "b": 1, "c": 2}).Normalize()
	b := vec(map[string]float64{"b": 5, "c": 1, "d": 7}).Normalize()
	if !near(a.Norm(), 1) || !near(b.Norm(), 1) {
		t.Fatalf("norms %v %v", a.Norm(), b.Norm())
	}
	d := Euclidean(a, b)
	if !near(d*d, 2-2*Cosine(a, b)) {
		t.Errorf("d² = %v, 2−2cos = %v", d*d, 2-2*Cosine(a, b))
	}
}

func TestAddAndWeight(t *testing.T) {
	// (x:1,y:2) + 2·(y:−1,z:3) = (x:1, z:6); y cancels and is dropped.
	v := Add(vec(map[string]float64{"x": 1, "y": 2}), 2, vec(map[string]float64{"y": -1, "z": 3}))
	if v.Len() != 2 || v.Weight("x") != 1 || v.Weight("z") != 6 || v.Weight("y") != 0 {
		t.Errorf("Add = %+v", v)
	}
	if m := v.Map(); len(m) != 2 || m["z"] != 6 {
		t.Errorf("Map = %v", m)
	}
}
