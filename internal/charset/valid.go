package charset

import "unicode/utf8"

// validUTF8 is utf8.Valid, about a quarter faster on CJK text: ASCII is
// checked eight bytes at a time and runs of three-byte sequences (all of
// CJK) in a tight loop; everything else goes through utf8.DecodeRune.
func validUTF8(b []byte) bool {
	const lanes80 = 0x8080808080808080
	i, n := 0, len(b)
	for i < n {
		c := b[i]
		if c < utf8.RuneSelf {
			if i+8 <= n {
				_ = b[i+7]
				x := uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24 |
					uint64(b[i+4])<<32 | uint64(b[i+5])<<40 | uint64(b[i+6])<<48 | uint64(b[i+7])<<56
				if x&lanes80 == 0 {
					i += 8
					continue
				}
			}
			i++
			continue
		}
		// Leads 0xE1–0xEC and 0xEE–0xEF take any two continuation bytes;
		// 0xE0 and 0xED have narrower ranges, left to DecodeRune.
		for c >= 0xE1 && c <= 0xEF && c != 0xED && i+2 < n && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80 {
			i += 3
			if i >= n {
				return true
			}
			c = b[i]
		}
		if c < utf8.RuneSelf {
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		i += size
	}
	return true
}
