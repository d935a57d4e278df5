package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cleaning a byline value down to the names it gives.

// CleanAuthor trims a byline value: white space collapsed, "By", 报道,
// 摄 and punctuation around it removed, overlong values refused. A name
// typeset with a space between its two characters (赵 培) is joined.
func CleanAuthor(v string) string {
	if i := strings.IndexAny(v, "：:"); i > 0 && strings.TrimSpace(v[:i]) != "" && allHan(strings.ReplaceAll(strings.TrimSpace(v[:i]), " ", "")) {
		v = v[:i] // 赵 培：北京物资学院 (name, then affiliation)
	}
	v = strings.Join(strings.FieldsFunc(v, isSpaceRune), " ")
	v = trimPunct(v)
	low := strings.ToLower(v)
	if strings.HasPrefix(low, "by ") {
		v = strings.TrimSpace(v[3:])
	}
	// A byline runs on into its date ("Jane Doe on March 10, 2015",
	// "JANE DOE JULY 29, 2016"): the name ends where the date starts.
	if _, start, _, ok := FindDate(v, nil); ok && start > 0 {
		v = strings.TrimSpace(v[:start])
		for _, suf := range []string{" on", " at", " |", " -", " —", ",", " ·", " •"} {
			v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), suf))
		}
		v = strings.TrimSpace(trimMonthWord(v))
	}
	// A handle after the name ("Jane Doe @jane", "Jane Doe@jane") is not
	// part of it, nor a role or a status after a dash ("Jane Doe - Staff
	// Writer", "Jane Doe Updated").
	if i := strings.IndexByte(v, '@'); i > 0 {
		rest := v[i+1:]
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			rest = rest[:j]
		}
		v = v[:i]
		if strings.Contains(rest, ".") { // an e-mail address: drop its local part too
			if j := strings.LastIndexAny(v, " \t"); j >= 0 {
				v = v[:j]
			} else {
				v = ""
			}
		}
		v = strings.TrimSpace(v)
	}
	v = strings.ReplaceAll(v, " ,", ",")
	for _, sep := range []string{" - ", " — ", " – ", " | "} {
		if i := strings.Index(v, sep); i > 0 && looksLikeName(v[:i]) {
			v = strings.TrimSpace(v[:i])
		}
	}
	v = trimTrailingWords(v)
	for _, suf := range []string{"报道", "摄影", "摄", "整理", "编译", "供稿", "撰文"} {
		v = strings.TrimSpace(strings.TrimSuffix(v, suf))
	}
	for _, pre := range []string{"本报记者", "本台记者", "本网记者", "新华社记者", "特约记者", "见习记者", "记者", "通讯员", "本报实习生", "实习生"} {
		v = strings.TrimSpace(strings.TrimPrefix(v, pre))
	}
	v = trimPunct(v)
	if v == "" || utf8.RuneCountInString(v) > 40 || strings.ContainsAny(v, "=<>\"{}") {
		return ""
	}
	if f := strings.Fields(v); len(f) == 2 && utf8.RuneCountInString(f[0]) == 1 &&
		utf8.RuneCountInString(f[1]) == 1 && allHan(f[0]+f[1]) {
		v = f[0] + f[1]
	}
	return v
}

// trimPunct trims punctuation, symbols and space around v, but keeps a
// closing bracket whose opening one is inside: "Jane Doe (janedoe)".
func trimPunct(v string) string {
	t := strings.TrimFunc(v, func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r)
	})
	if t == "" {
		return t
	}
	rest := strings.TrimLeftFunc(v[strings.Index(v, t)+len(t):], unicode.IsSpace)
	for _, p := range [][2]string{{"(", ")"}, {"（", "）"}} {
		if strings.HasPrefix(rest, p[1]) && strings.Count(t, p[0]) == strings.Count(t, p[1])+1 {
			return t + p[1]
		}
	}
	return t
}

// trailingWords end English bylines without being names.
var trailingWords = map[string]bool{
	"updated": true, "published": true, "posted": true, "on": true, "at": true, "and": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true, "mon": true, "tue": true, "wed": true, "thu": true,
	"fri": true, "sat": true, "sun": true,
}

func trimTrailingWords(v string) string {
	f := strings.Fields(v)
	for len(f) > 1 && trailingWords[strings.ToLower(strings.Trim(f[len(f)-1], ",.;:"))] {
		f = f[:len(f)-1]
	}
	return strings.TrimRight(strings.Join(f, " "), " ,;:·•|-—")
}

// trimMonthWord drops a trailing month name left by a date the parser
// read without it ("JOHN DOE JAN. 13" before ", 2017").
func trimMonthWord(v string) string {
	f := strings.Fields(v)
	if len(f) > 1 {
		last := strings.ToLower(strings.TrimSuffix(f[len(f)-1], "."))
		if _, ok := monthNames[last[:min(len(last), 3)]]; ok && len(last) <= 9 && isMonthWord(last) {
			return strings.Join(f[:len(f)-1], " ")
		}
	}
	return v
}

func isMonthWord(w string) bool {
	for _, m := range []string{"january", "february", "march", "april", "may", "june", "july",
		"august", "september", "october", "november", "december", "sept"} {
		if w == m || (len(w) >= 3 && strings.HasPrefix(m, w)) {
			return true
		}
	}
	return false
}

// looksLikeName: an English byline is a few capitalised words.
func looksLikeName(v string) bool {
	f := strings.Fields(v)
	if len(f) == 0 || len(f) > 8 {
		return false
	}
	return unicode.IsUpper([]rune(f[0])[0])
}

// affiliationWords name an agency, a paper, a role or a degree, never a
// person.
var affiliationWords = map[string]bool{
	"press": true, "associated": true, "reuters": true, "ap": true, "afp": true, "bloomberg": true,
	"staff": true, "writer": true, "reporter": true, "correspondent": true, "editor": true,
	"contributor": true, "columnist": true, "times": true, "news": true, "post": true,
	"journal": true, "agency": true, "wire": true, "service": true, "magazine": true, "herald": true,
	"tribune": true, "daily": true, "telegraph": true, "guardian": true, "globe": true,
	// degrees and titles after a name: "Brenda Goodman, MA"
	"ma": true, "md": true, "phd": true, "ph.d": true, "mph": true, "rn": true, "msc": true, "mba": true,
}

// dropAffiliation cuts an English byline at the first comma-separated
// part that names an agency or a role: "Jane Doe, Associated Press" is
// Jane Doe, while "Jane Doe, John Roe" stays two names.
func dropAffiliation(v string) string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		if i == 0 {
			continue
		}
		for _, w := range strings.Fields(strings.ToLower(p)) {
			if affiliationWords[strings.Trim(w, ".;:()")] {
				return strings.TrimSpace(strings.Join(parts[:i], ","))
			}
		}
	}
	return v
}

// nameParticles are the lower-case words inside names ("Michiel de
// Jong", "Jane Doe and John Roe").
var nameParticles = map[string]bool{
	"de": true, "da": true, "del": true, "della": true, "di": true, "du": true, "van": true,
	"von": true, "der": true, "den": true, "la": true, "le": true, "bin": true, "al": true,
	"el": true, "and": true,
}

// notNameWords are words of a byline's labels, never of a name ("Posted
// By", "Analysis by", "Search Site", "Staff Photo", "Our Correspondent").
var notNameWords = map[string]bool{
	"by": true, "author": true, "authors": true, "site": true, "search": true, "photo": true,
	"photos": true, "sport": true, "sports": true, "our": true, "from": true, "follow": true,
	"more": true, "view": true, "all": true, "services": true, "special": true, "about": true,
	"contact": true, "home": true, "subscribe": true, "login": true, "menu": true,
}

// namesWords: every word of v may be part of a person's name: a
// capitalised word or a particle, no digit, colon or slash, no word of an
// agency, a role or a label.
func namesWords(v string) bool {
	if strings.ContainsAny(v, "0123456789:/") {
		return false
	}
	for _, w := range strings.Fields(v) {
		lw := strings.ToLower(strings.Trim(w, ",.;()"))
		if lw == "" {
			continue
		}
		if affiliationWords[lw] || notNameWords[lw] {
			return false
		}
		if r, _ := utf8.DecodeRuneInString(strings.Trim(w, ",.;()")); !unicode.IsUpper(r) && !nameParticles[lw] {
			return false
		}
	}
	return true
}

// BylineName is the person a short byline element names ("By Jane Doe",
// "Written by Jane Doe | March 3", "JANE DOE"), or "" when its text does
// not read as an English name: a label ("Follow Author", "About the
// author"), a sentence or a date.
func BylineName(text string) string {
	text = strings.Join(strings.FieldsFunc(text, isSpaceRune), " ")
	if m := englishBy.FindStringSubmatch(text); m != nil {
		text = m[1]
	}
	v := dropAffiliation(CleanAuthor(text))
	if v == "" || !looksLikeName(v) || !namesWords(v) {
		return ""
	}
	if _, start, _, ok := FindDate(v, nil); ok && start == 0 {
		return "" // a date, not a name
	}
	return v
}

// CleanByline is CleanAuthor, and then the agency, role or degree after
// the names cut off ("Brenda Goodman, MA" is Brenda Goodman).
func CleanByline(v string) string {
	return dropAffiliation(CleanAuthor(v))
}
