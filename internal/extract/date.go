package extract

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Precision says how much of a date the input gave.
type Precision int

// Precisions, coarsest first.
const (
	Year Precision = iota + 1
	Month
	Day
	Minute
	Second
)

// Date is a parsed date with the precision of its input.
type Date struct {
	Time time.Time
	Prec Precision
	// Zoned says the input carried its own offset; otherwise Time is in the
	// location given to the parser.
	Zoned bool
}

// IsZero tells whether d is the zero Date.
func (d Date) IsZero() bool { return d.Prec == 0 }

// String formats d as precisely as its input allows: RFC 3339 with the
// offset when the time of day is known, else 2006-01-02, 2006-01 or 2006.
func (d Date) String() string {
	switch d.Prec {
	case Year:
		return d.Time.Format("2006")
	case Month:
		return d.Time.Format("2006-01")
	case Day:
		return d.Time.Format("2006-01-02")
	case Minute, Second:
		return d.Time.Format(time.RFC3339)
	}
	return ""
}

var monthNames = map[string]time.Month{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
	"sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

const monthRe = `(jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\.?`

// The date layouts, most specific first. Each regexp names its parts.
var datePatterns = []*regexp.Regexp{
	// 2017-04-01T08:00:00+08:00, 2017-4-1 8:00, 2017/04/01 08:00:00, 2017.4.1
	regexp.MustCompile(`(?i)\b(?P<y>(?:19|20)\d{2})\s*(?P<s1>[-/.])\s*(?P<m>\d{1,2})\s*(?P<s2>[-/.])\s*(?P<d>\d{1,2})(?:(?:\s*T\s*|\s+|&nbsp;)(?P<H>\d{1,2})\s*[:：]\s*(?P<M>\d{2})(?:\s*[:：]\s*(?P<S>\d{2})(?:\.\d+)?)?(?:\s*(?P<ap>am|pm|a\.m\.|p\.m\.))?\s*(?P<z>Z|[+-]\d{2}:?\d{2}|GMT|UTC)?)?`),
	// 2017年4月1日 08:00, 2017年04月01日 上午8时30分
	regexp.MustCompile(`(?P<y>(?:19|20)\d{2})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]?(?:\s*(?:(?P<cap>上午|下午|晚上|凌晨|早上|中午)\s*)?(?P<H>\d{1,2})\s*[:：时點点]\s*(?P<M>\d{1,2})\s*分?(?:\s*[:：]?\s*(?P<S>\d{1,2})\s*秒?)?)?`),
	// Apr 1, 2017 08:00 pm; April 1st 2017; Sat, Apr 1, 2017
	regexp.MustCompile(`(?i)\b(?P<mon>` + monthRe + `)\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>(?:19|20)\d{2})(?:,?\s+(?:at\s+)?(?P<H>\d{1,2})[:.](?P<M>\d{2})(?::(?P<S>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?\s*(?P<z>Z|[+-]\d{2}:?\d{2}|GMT|UTC)?)?`),
	// 1 April 2017, Sat, 01 Apr 2017 08:00:00 GMT
	regexp.MustCompile(`(?i)\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?P<mon>` + monthRe + `),?\s+(?P<y>(?:19|20)\d{2})(?:,?\s+(?:at\s+)?(?P<H>\d{1,2})[:.](?P<M>\d{2})(?::(?P<S>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?\s*(?P<z>Z|[+-]\d{2}:?\d{2}|GMT|UTC)?)?`),
	// 2017年4月, 2017-04 (month precision)
	regexp.MustCompile(`(?P<y>(?:19|20)\d{2})\s*年\s*(?P<m>\d{1,2})\s*月`),
	regexp.MustCompile(`(?i)\b(?P<mon>` + monthRe + `)\s+(?P<y>(?:19|20)\d{2})\b`),
	regexp.MustCompile(`^\s*(?P<y>(?:19|20)\d{2})\s*[-/.]\s*(?P<m>\d{1,2})\s*$`),
	// 20170401 (compact, whole value only)
	regexp.MustCompile(`^\s*(?P<y>(?:19|20)\d{2})(?P<m>[01]\d)(?P<d>[0-3]\d)\s*$`),
	// 2017 (whole value only)
	regexp.MustCompile(`^\s*(?P<y>(?:19|20)\d{2})\s*年?\s*$`),
}

// numericDate is a day and month in either order before the year:
// 06/02/2022 - 13:48, 9/17/2004 5:54:13 AM. Which number is the month is
// decided in fromMatch, so it is read only where a date is expected
// (LooseDate): after a cue word or in a metadata value.
var numericDate = regexp.MustCompile(`(?i)\b(?P<a>\d{1,2})(?P<s1>[-/.])(?P<b>\d{1,2})(?P<s2>[-/.])(?P<y>(?:19|20)\d{2})\b(?:(?:\s*[-,]\s*|\s+)(?P<H>\d{1,2})\s*:\s*(?P<M>\d{2})(?:\s*:\s*(?P<S>\d{2}))?(?:\s*(?P<ap>am|pm|a\.m\.|p\.m\.))?\s*(?P<z>Z|[+-]\d{2}:?\d{2}|GMT|UTC)?)?`)

// loosePatterns are datePatterns with numericDate before the month-only
// layouts.
var loosePatterns = append(append(append([]*regexp.Regexp{}, datePatterns[:4]...), numericDate), datePatterns[4:]...)

// ParseDate reads the first date in s. Times without an offset are taken
// in loc (UTC when loc is nil).
func ParseDate(s string, loc *time.Location) (Date, bool) {
	d, _, ok := findDate(s, loc, false)
	return d, ok
}

// LooseDate is ParseDate for text known to hold a date (a metadata value,
// the words after 发布时间 or Published): it also reads day and month
// written as numbers before the year. The order is day/month (most of the
// world) unless a number over 12 says otherwise or the time has AM/PM,
// the US convention that also writes month/day (9/17/2004 5:54:13 AM).
func LooseDate(s string, loc *time.Location) (d Date, start, end int, ok bool) {
	d, idx, ok := findDate(s, loc, true)
	if !ok {
		return d, -1, -1, false
	}
	return d, idx[0], idx[1], true
}

// FindDate is ParseDate that also reports the byte offsets of the match.
func FindDate(s string, loc *time.Location) (d Date, start, end int, ok bool) {
	d, idx, ok := findDate(s, loc, false)
	if !ok {
		return d, -1, -1, false
	}
	return d, idx[0], idx[1], true
}

func findDate(s string, loc *time.Location, loose bool) (Date, []int, bool) {
	if loc == nil {
		loc = time.UTC
	}
	if len(s) > 1<<16 {
		s = s[:1<<16]
	}
	if ts, ok := unixTime(s); ok {
		return Date{Time: ts.In(loc), Prec: Second, Zoned: true}, []int{0, len(s)}, true
	}
	first := yearAt(s)
	if first < 0 {
		return Date{}, nil, false // every layout has a year; most text has none
	}
	// A date starts at most a few words before its year, and once one is
	// found only earlier starts matter: each layout scans a window, not
	// the whole text.
	off := max(0, first-maxBeforeYear)
	for off > 0 && !utf8.RuneStart(s[off]) {
		off--
	}
	bestStart := -1
	var best Date
	var bestIdx []int
	patterns := datePatterns
	if loose {
		patterns = loosePatterns
	}
	for _, re := range patterns {
		end := len(s)
		if bestStart >= 0 {
			end = min(end, bestStart+maxDateLen)
			for end < len(s) && !utf8.RuneStart(s[end]) {
				end++
			}
		}
		if off > 0 && anchored[re] {
			continue
		}
		win := s[off:end]
		if need := layoutNeeds[re]; need != nil && !need(win) {
			continue
		}
		for m := range firstThenAll(re, win, 4) {
			if bestStart >= 0 && off+m[0] >= bestStart {
				break
			}
			d, ok := fromMatch(re, win, m, loc)
			if !ok {
				continue
			}
			best, bestStart, bestIdx = d, off+m[0], []int{off + m[0], off + m[1]}
			break
		}
	}
	return best, bestIdx, bestStart >= 0
}

// maxBeforeYear bounds the bytes of a date before its year ("Saturday,
// September 10th, "); maxDateLen bounds a whole date with its time.
const (
	maxBeforeYear = 64
	maxDateLen    = 128
)

// anchored layouts match whole values only.
var anchored = func() map[*regexp.Regexp]bool {
	m := map[*regexp.Regexp]bool{}
	for _, re := range datePatterns {
		if strings.HasPrefix(re.String(), "^") {
			m[re] = true
		}
	}
	return m
}()

// yearAt is the offset of the first four digits starting with 19 or 20.
func yearAt(s string) int {
	for i := 0; i+3 < len(s); i++ {
		c := s[i]
		if (c == '1' && s[i+1] == '9' || c == '2' && s[i+1] == '0') && isDigit(s[i+2]) && isDigit(s[i+3]) {
			return i
		}
	}
	return -1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// unixTime reads a bare 10- or 13-digit Unix timestamp.
func unixTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if (len(s) != 10 && len(s) != 13) || strings.Trim(s, "0123456789") != "" {
		return time.Time{}, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	if len(s) == 13 {
		v /= 1000
	}
	t := time.Unix(v, 0)
	if t.Year() < 1995 || t.Year() > 2100 {
		return time.Time{}, false
	}
	return t, true
}

func fromMatch(re *regexp.Regexp, s string, m []int, loc *time.Location) (Date, bool) {
	get := func(name string) string {
		i := re.SubexpIndex(name)
		if i < 0 || m[2*i] < 0 {
			return ""
		}
		return s[m[2*i]:m[2*i+1]]
	}
	num := func(name string) int {
		v, _ := strconv.Atoi(get(name))
		return v
	}
	if get("s1") != get("s2") {
		return Date{}, false // "2004 - 01/01" is two things, not one date
	}
	y := num("y")
	mo := num("m")
	d := num("d")
	hasDay := get("d") != ""
	if get("a") != "" { // day and month as numbers, order to decide
		a, b := num("a"), num("b")
		monthFirst := b > 12 || (a <= 12 && get("ap") != "" && get("s1") == "/")
		mo, d, hasDay = b, a, true
		if monthFirst {
			mo, d = a, b
		}
	}
	if name := strings.ToLower(strings.TrimSuffix(get("mon"), ".")); name != "" {
		for k, v := range monthNames {
			if strings.HasPrefix(name, k) {
				mo = int(v)
				break
			}
		}
	}
	prec := Year
	if mo != 0 {
		prec = Month
	}
	if hasDay {
		prec = Day
	}
	if y < 1900 || y > 2100 || (prec >= Month && (mo < 1 || mo > 12)) || (prec >= Day && (d < 1 || d > 31)) {
		return Date{}, false
	}
	if mo == 0 {
		mo = 1
	}
	if d == 0 {
		d = 1
	}
	var hh, mm, ss int
	if get("H") != "" && get("M") != "" {
		hh, mm, ss = num("H"), num("M"), num("S")
		switch strings.ToLower(strings.ReplaceAll(get("ap"), ".", "")) {
		case "pm":
			if hh < 12 {
				hh += 12
			}
		case "am":
			if hh == 12 {
				hh = 0
			}
		}
		switch get("cap") {
		case "下午", "晚上":
			if hh < 12 {
				hh += 12
			}
		case "中午":
			if hh < 11 {
				hh += 12
			}
		}
		if hh > 23 || mm > 59 || ss > 60 {
			return Date{}, false
		}
		prec = Minute
		if get("S") != "" {
			prec = Second
		}
	}
	zoned := false
	l := loc
	if z := get("z"); z != "" {
		if off, ok := parseOffset(z); ok {
			l = time.FixedZone("", off)
			zoned = true
		}
	}
	t := time.Date(y, time.Month(mo), d, hh, mm, ss, 0, l)
	if t.Day() != d { // 2017-02-30
		return Date{}, false
	}
	return Date{Time: t, Prec: prec, Zoned: zoned}, true
}

// parseOffset reads Z, GMT, UTC, +08:00 or +0800 as seconds east of UTC.
func parseOffset(z string) (int, bool) {
	switch strings.ToUpper(z) {
	case "Z", "GMT", "UTC":
		return 0, true
	}
	sign := 1
	if z[0] == '-' {
		sign = -1
	}
	z = strings.ReplaceAll(z[1:], ":", "")
	if len(z) != 4 {
		return 0, false
	}
	h, err1 := strconv.Atoi(z[:2])
	m, err2 := strconv.Atoi(z[2:])
	if err1 != nil || err2 != nil || h > 14 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}
