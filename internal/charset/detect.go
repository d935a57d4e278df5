package charset

import (
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// detectSample is how much of the body statistical detection reads.
const detectSample = 16 << 10

// maxErrorRate is the share of undecodable characters (among the non-ASCII
// ones) above which a detector's candidate is passed over.
const maxErrorRate = 0.02

// detect decides the encoding of a body that declares none.
func detect(body []byte) Result {
	sample := body
	if len(sample) > detectSample {
		sample = sample[:detectSample]
	}
	if validUTF8(sample) || mostlyUTF8(sample) {
		return Result{Name: UTF8, Source: SourceDefault, Encoding: encoding.Nop}
	}
	if r, ok := detectLegacy(body); ok {
		return r
	}
	// Nothing convincing: the WHATWG default for undeclared documents.
	return Result{Name: "windows-1252", Source: SourceDefault, Encoding: charmap.Windows1252}
}

// detectLegacy asks the statistical detector for candidates and takes the
// most confident one that decodes the sample almost without errors.
func detectLegacy(body []byte) (Result, bool) {
	sample := body
	if len(sample) > detectSample {
		sample = sample[:detectSample]
	}
	results, err := chardet.NewHtmlDetector().DetectAll(sample)
	if err != nil {
		return Result{}, false
	}
	var best Result
	bestRate := 2.0
	for _, c := range results {
		enc, name, err := Lookup(c.Charset)
		if err != nil || name == UTF8 || strings.HasPrefix(name, "utf-16") || name == "replacement" {
			continue
		}
		rate := errorRate(enc, sample, len(sample) < len(body))
		r := Result{Name: name, Source: SourceDetected, Encoding: enc}
		if r.Name == "gb18030" && !hasGB18030FourByte(sample) {
			r.Name = "gbk" // same decoder; the page only uses GBK's two-byte range
		}
		if rate <= maxErrorRate {
			return r, true
		}
		if rate < bestRate {
			best, bestRate = r, rate
		}
	}
	if best.Encoding != nil && bestRate < 0.5 {
		return best, true
	}
	return Result{}, false
}

// errorRate decodes sample and gives the share of U+FFFD among the decoded
// non-ASCII characters. A sample cut from a longer body may end inside a
// character, so a last replacement character is forgiven then.
func errorRate(enc encoding.Encoding, sample []byte, cut bool) float64 {
	out, err := enc.NewDecoder().Bytes(sample)
	if err != nil {
		return 1
	}
	s := string(out)
	if cut {
		s = strings.TrimSuffix(s, "\uFFFD")
	}
	var nonASCII, bad int
	for _, r := range s {
		if r >= utf8.RuneSelf {
			nonASCII++
			if r == utf8.RuneError {
				bad++
			}
		}
	}
	if nonASCII == 0 {
		return 0
	}
	return float64(bad) / float64(nonASCII)
}

// mostlyUTF8 tells whether b reads as UTF-8 with at most a few flaws: a
// character cut at the end (a truncated body or sample) is no flaw, and
// fewer bad bytes than a tenth of the multi-byte characters are tolerated.
// Legacy CJK text read as UTF-8 is almost all bad bytes.
func mostlyUTF8(b []byte) bool {
	multi, bad := 0, 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if !utf8.FullRune(b[i:]) {
				break // cut at the end
			}
			bad++
			i++
			continue
		}
		multi++
		i += size
	}
	return bad == 0 || bad*10 < multi
}

// hasGB18030FourByte reports whether b holds a GB18030 four-byte sequence
// (lead 0x81–0xFE, then a digit 0x30–0x39), which GBK does not have.
func hasGB18030FourByte(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		c := b[i]
		if c < 0x80 {
			continue
		}
		if c >= 0x81 && c <= 0xFE && b[i+1] >= 0x30 && b[i+1] <= 0x39 {
			return true
		}
		i++ // the trail byte of a two-byte character
	}
	return false
}
