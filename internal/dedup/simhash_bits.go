package dedup

import (
	"math/bits"
	"strings"
	"unicode"

	"github.com/cespare/xxhash/v2"
)

// The bit-level hashes: SimHash folding, the exact hash and the
// fingerprint's text form.

// simhash folds weighted features into 64 bits: bit b is set when the
// features with bit b set outweigh those without. Rather than touching
// 64 counters per feature, it adds each weight to one of 16 counters per
// nibble of the hash (16 adds per feature) and expands the nibble sums into
// bit sums once at the end.
func simhash(feats []feature) uint64 {
	var sums [64]float32
	return simhashSums(feats, &sums)
}

// simhashSums is simhash that also leaves in sums, for each bit, the
// weight of the features with the bit set less the weight of the rest.
func simhashSums(feats []feature, sums *[64]float32) uint64 {
	var nib [16][16]float32
	total := float32(0)
	for _, ft := range feats {
		total += ft.w
		addNibbles(&nib, ft.h, ft.w)
	}
	var zero [64]float32
	return expand(&nib, total, &zero, sums)
}

// addNibbles adds w to the counter of each nibble of h's value.
func addNibbles(nib *[16][16]float32, h uint64, w float32) {
	for j := 0; j < 16; j++ {
		nib[j][h&15] += w
		h >>= 4
	}
}

// expand turns nibble counters into bit sums: sums[b] is base[b] plus
// the weight of the features with bit b set less that of the rest (of
// total), and the result has bit b set when sums[b] > 0.
func expand(nib *[16][16]float32, total float32, base, sums *[64]float32) uint64 {
	var out uint64
	for j := 0; j < 16; j++ {
		n := &nib[j]
		// set[b]: the weight of the values of nibble j with bit b set,
		// summed in pairs and quads (no branch per value).
		p23 := n[2] + n[3]
		p45, p67 := n[4]+n[5], n[6]+n[7]
		p89, pab := n[8]+n[9], n[10]+n[11]
		pcd, pef := n[12]+n[13], n[14]+n[15]
		set := [4]float32{
			n[1] + n[3] + n[5] + n[7] + n[9] + n[11] + n[13] + n[15],
			p23 + p67 + pab + pef,
			p45 + p67 + pcd + pef,
			p89 + pab + pcd + pef,
		}
		for b := 0; b < 4; b++ {
			// set − (total − set) > 0: the features with the bit outweigh the rest.
			v := base[4*j+b] + 2*set[b] - total
			sums[4*j+b] = v
			if v > 0 {
				out |= 1 << (4*j + b)
			}
		}
	}
	return out
}

// mix is the finaliser of SplitMix64: it spreads the bits of a combined
// hash so every output bit depends on every input bit.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 27
	h *= 0x94D049BB133111EB
	h ^= h >> 31
	return h
}

// ExactHash hashes s with runs of white space collapsed to one space and
// leading and trailing space dropped, so copies that differ only in line
// breaks and indentation hash alike.
func ExactHash(s string) uint64 {
	d := xxhash.New()
	space := false
	start := -1
	flush := func(end int) {
		if start >= 0 {
			d.WriteString(s[start:end])
			start = -1
		}
	}
	wrote := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			flush(i)
			space = true
			continue
		}
		if start < 0 {
			if space && wrote {
				d.WriteString(" ")
			}
			start = i
			space = false
			wrote = true
		}
	}
	flush(len(s))
	return d.Sum64()
}

// Hamming is the number of bits in which a and b differ.
func Hamming(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// FormatFingerprint writes a SimHash as 16 hex digits, the knowledge
// record's fingerprint.
func FormatFingerprint(h uint64) string {
	const hexd = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = hexd[h&15]
		h >>= 4
	}
	return string(b[:])
}

// isBlank tells whether s has no visible character.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
