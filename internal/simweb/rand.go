package simweb

import "math/rand/v2"

// Every random choice of simweb comes from a generator seeded by a hash of
// the web's seed and of what is being chosen (a host, a path), so a page
// does not depend on the order in which pages are requested.

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashOf mixes the seed and the parts with FNV-1a and a final avalanche.
func hashOf(seed int64, parts ...string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < 8; i++ {
		h ^= uint64(byte(seed >> (8 * i)))
		h *= fnvPrime
	}
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint64(p[i])
			h *= fnvPrime
		}
		h ^= 0xff
		h *= fnvPrime
	}
	return mix64(h)
}

// mix64 is the splitmix64 finaliser.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newRand(seed int64, parts ...string) *rand.Rand {
	h := hashOf(seed, parts...)
	return rand.New(rand.NewPCG(h, mix64(h+0x9e3779b97f4a7c15)))
}

// pick returns a random element of xs.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// chance is true with probability p.
func chance(r *rand.Rand, p float64) bool { return r.Float64() < p }

// between returns an int in [lo, hi].
func between(r *rand.Rand, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.IntN(hi-lo+1)
}
