package segmenter

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/focuscrawl/focuscrawl/internal/extract"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/slicesx"
)

// publishedMeta are meta names and properties holding the publication
// time, in order of trust.
var publishedMeta = []string{
	"article:published_time", "og:article:published_time", "published_time", "datepublished",
	"pubdate", "publishdate", "publish-date", "publish_date", "publishedtime", "publication_date",
	"parsely-pub-date", "sailthru.date", "dc.date.issued", "dcterms.issued", "dc.date",
	"dcterms.created", "dc.date.created", "article.published", "weibo:article:create_at",
	"firstpublishedtime", "pubtime", "createdate", "og:pubdate", "date",
}

// modifiedMeta are the times of the last change: a page's publication
// time when nothing better dates it, after the JSON-LD dates.
var modifiedMeta = []string{"og:updated_time", "article:modified_time"}

var authorMeta = []string{
	"author", "article:author", "byl", "dc.creator", "dcterms.creator", "sailthru.author",
	"parsely-author", "twitter:creator", "og:article:author",
}

// authorHome is a web address in brackets after an author's name.
var authorHome = regexp.MustCompile(`\s*[(<\[]\s*https?://[^\s)>\]]*\s*[)>\]]`)

var sourceMeta = []string{"source", "og:site_name", "application-name", "publisher", "dc.publisher"}

// indexFold is the index of the lower-case ASCII word in s, ignoring case.
func indexFold(s, word string) int {
	c0, c1 := word[0], word[0]-'a'+'A'
	for i := 0; i+len(word) <= len(s); i++ {
		if (s[i] == c0 || s[i] == c1) && strings.EqualFold(s[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}

// jsonLDField reads the value of a "field": "value" pair in JSON-LD text
// that may not decode (it often does not: trailing commas, several
// objects), by the field's jsonLDPattern.
func jsonLDField(src string, field *regexp.Regexp) string {
	if m := field.FindStringSubmatch(src); m != nil {
		return m[1]
	}
	return ""
}

// jsonLDPattern matches a "field": "value" pair, the value in group 1.
func jsonLDPattern(field string) *regexp.Regexp {
	return regexp.MustCompile(`"` + field + `"\s*:\s*"([^"]{1,200})"`)
}

// The JSON-LD dates read, compiled once.
var (
	ldDatePublished = jsonLDPattern("datePublished")
	ldDateCreated   = jsonLDPattern("dateCreated")
	ldUploadDate    = jsonLDPattern("uploadDate")
)

// ldNames are the names JSON-LD gives: its authors typed Person (or not
// typed), those typed otherwise (an Organization), and its publishers.
type ldNames struct {
	people, orgs, publishers []string
}

// jsonLDNames reads author and publisher names from decoded JSON-LD.
func jsonLDNames(src string) ldNames {
	var out ldNames
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		return out
	}
	const (
		other = iota
		author
		publisher
	)
	add := func(role int, person bool, n string) {
		n = collapseSpace(strings.TrimSpace(n))
		switch {
		case n == "" || strings.HasPrefix(n, "http"):
		case role == publisher:
			out.publishers = append(out.publishers, n)
		case person:
			out.people = append(out.people, n)
		default:
			out.orgs = append(out.orgs, n)
		}
	}
	var walk func(any, int)
	walk = func(x any, role int) {
		switch t := x.(type) {
		case map[string]any:
			if role != other {
				if n, ok := t["name"].(string); ok && strings.TrimSpace(n) != "" {
					add(role, personOrUntyped(t["@type"]), n)
					return
				}
			}
			for k, vv := range t {
				switch k {
				case "author", "creator":
					walk(vv, author)
				case "publisher":
					walk(vv, publisher)
				case "@graph":
					walk(vv, other)
				}
			}
		case []any:
			for _, e := range t {
				walk(e, role)
			}
		case string:
			if role != other {
				add(role, true, t)
			}
		}
	}
	walk(v, other)
	out.people = slicesx.Unique(out.people)
	out.orgs = slicesx.Unique(out.orgs)
	return out
}

// personOrUntyped: a JSON-LD @type (a string or a list) that names a
// Person, or none at all.
func personOrUntyped(t any) bool {
	switch v := t.(type) {
	case nil:
		return true
	case string:
		return v == "" || strings.EqualFold(strings.TrimPrefix(strings.TrimPrefix(v, "http://schema.org/"), "https://schema.org/"), "Person")
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok && s != "" && personOrUntyped(s) {
				return true
			}
		}
		return len(v) == 0
	}
	return true
}

// metadata fills published, author and source by generic rules.
func (sg *Segmenter) metadata(d *record.Doc, pg *page, loc *time.Location) {
	z := pg.bylineZone(d.Title)
	d.Published = findPublished(pg, z, loc)
	d.Source = findSource(pg, z)
	d.Author = findAuthor(pg, z, notAuthors(pg.head, d.URL, d.Source))
}

// Zone sizes, in bytes: article metadata sits right above the content
// (title, byline, date and source lines), in its first and last lines,
// and right under it (编辑, （记者 … 报道）, source lines).
const (
	zoneBefore = 4000
	zoneHead   = 600
	zoneTail   = 400
	zoneAfter  = 400
)

// bylineZone cuts the page text around the content region.
func (pg *page) bylineZone(title string) *extract.Zone {
	if pg.zone != nil {
		return pg.zone
	}
	text := pg.text
	z := &extract.Zone{Title: title}
	if pg.from < 0 || pg.to < pg.from || pg.to > len(text) {
		z.Before = cutBack(text, len(text), 2*zoneBefore)
		z.Head = ""
	} else {
		z.Before = cutBack(text, pg.from, zoneBefore)
		z.Head = cutFore(text, pg.from, min(pg.to, pg.from+zoneHead))
		// The content's own last lines (the region's may end in ads or
		// link lists), and what follows them in the page.
		c := pg.content
		z.Tail = lastLines(c, zoneTail)
		end := pg.to
		last := strings.TrimSpace(c[strings.LastIndexByte(c, '\n')+1:])
		if last != "" {
			if i := strings.LastIndex(text[pg.from:pg.to], last); i >= 0 {
				end = pg.from + i + len(last)
			}
		}
		z.After = cutFore(text, end, end+zoneAfter)
	}
	pg.zone = z
	return z
}

// cutBack is text[from-n:end] starting on a line (or at least a rune)
// boundary; cutFore is text[start:end] ending on a rune boundary.
func cutBack(text string, end, n int) string {
	start := max(0, end-n)
	if start > 0 {
		if i := strings.IndexByte(text[start:end], '\n'); i >= 0 && i < n/4 {
			start += i + 1
		}
		for start < end && !utf8Start(text[start]) {
			start++
		}
	}
	return text[start:end]
}

func cutFore(text string, start, end int) string {
	end = min(end, len(text))
	for end < len(text) && end > start && !utf8Start(text[end]) {
		end--
	}
	return text[start:end]
}

// findPublished tries the metadata first; a date-only value is refined
// by a time of day on the same date in the visible text, and a time with
// an offset is shown in the page's own time zone when the page prints it.
func findPublished(pg *page, z *extract.Zone, loc *time.Location) string {
	text := z.Text()
	d := findPublishedDate(pg, text, loc)
	switch {
	case d.Prec == extract.Day:
		for i := 0; i < 8 && text != ""; i++ {
			t, _, end, ok := extract.FindDate(text, loc)
			if !ok {
				break
			}
			if t.Prec >= extract.Minute && t.Time.Format("2006-01-02") == d.Time.Format("2006-01-02") {
				return t.String()
			}
			text = text[end:]
		}
	case d.Prec >= extract.Minute && d.Zoned:
		return pageLocal(d, text).String()
	}
	return d.String()
}

// pageLocal shows a zoned time in the zone the page prints it in: when a
// visible time after a date cue is the same instant's wall clock at a
// whole-quarter-hour offset (13:48 printed, 12:48:06Z in the metadata),
// that offset is the page's.
func pageLocal(d extract.Date, text string) extract.Date {
	for m := range dateCues(text) {
		rest := text[m[1]:min(len(text), m[1]+60)]
		v, s, _, ok := extract.LooseDate(rest, time.UTC)
		if !ok || s >= 12 || v.Prec < extract.Minute || v.Zoned {
			continue
		}
		wall := time.Date(v.Time.Year(), v.Time.Month(), v.Time.Day(), v.Time.Hour(), v.Time.Minute(), 0, 0, time.UTC)
		utc := d.Time.UTC().Truncate(time.Minute)
		off := wall.Sub(utc)
		if off == 0 || off%(15*time.Minute) != 0 || off > 14*time.Hour || off < -14*time.Hour {
			continue
		}
		d.Time = d.Time.In(time.FixedZone("", int(off/time.Second)))
		return d
	}
	return d
}

// officialDateCue is the date a government document was signed (成文日期),
// its date of record, ahead of the date the web page was posted.
var officialDateCue = regexp.MustCompile(`成\s*文\s*日\s*期\s*[:：]?[\s|｜]*`)

// earlier tells whether a is clearly before b: at all when both carry
// their offset, else by more than the 14 hours an unknown offset can
// shift a time.
func earlier(a, b extract.Date) bool {
	if a.Zoned && b.Zoned {
		return a.Time.Before(b.Time)
	}
	return b.Time.Sub(a.Time) > 14*time.Hour
}

func findPublishedDate(pg *page, text string, loc *time.Location) extract.Date {
	if m := officialDateCue.FindStringIndex(text); m != nil {
		if dt, s, _, ok := extract.LooseDate(text[m[1]:min(len(text), m[1]+60)], loc); ok && s < 12 && dt.Prec >= extract.Day {
			return dt
		}
	}
	h := pg.head
	metaDate := func(keys []string) (extract.Date, bool) {
		for _, k := range keys {
			if v := h.meta[k]; v != "" {
				if dt, _, _, ok := extract.LooseDate(v, loc); ok && dt.Prec >= extract.Day {
					return dt, true
				}
			}
		}
		return extract.Date{}, false
	}
	jsonLDDate := func(fields ...*regexp.Regexp) (extract.Date, bool) {
		for _, src := range h.jsonLD {
			for _, f := range fields {
				if v := jsonLDField(src, f); v != "" {
					if dt, ok := extract.ParseDate(v, loc); ok {
						return dt, true
					}
				}
			}
		}
		return extract.Date{}, false
	}
	// The meta published time and the JSON-LD datePublished: when both
	// give a day and disagree, the earlier is the first publication (a
	// republished story refreshes one of them and keeps the other). A
	// time written without its offset may be off by up to 14 hours, so
	// then only an earlier day beyond that counts.
	if dm, ok := metaDate(publishedMeta); ok {
		if dj, ok := jsonLDDate(ldDatePublished); ok && dj.Prec >= extract.Day && earlier(dj, dm) {
			return dj
		}
		return dm
	}
	if dt, ok := jsonLDDate(ldDatePublished, ldDateCreated, ldUploadDate); ok {
		return dt
	}
	if dt, ok := metaDate(modifiedMeta); ok {
		return dt
	}
	for _, v := range h.timeAttrs {
		if dt, ok := extract.ParseDate(v, loc); ok && dt.Prec >= extract.Day {
			return dt
		}
	}
	// Visible text: a date after a cue word, then the first full date
	// around the main content.
	for m := range dateCues(text) {
		rest := text[m[1]:min(len(text), m[1]+60)]
		if dt, s, _, ok := extract.LooseDate(rest, loc); ok && s < 12 && dt.Prec >= extract.Day {
			return dt
		}
	}
	// On a page of dated entries the content is the first entry, and its
	// opening line dates it.
	if pg.entry != nil {
		if dt, ok := extract.ParseDate(entryHeadline(pg.entry), loc); ok && dt.Prec >= extract.Day {
			return dt
		}
	}
	// A report or document reprinted on a site carries its own date on a
	// line of its own among its opening lines (title, signing body, date):
	// its date of record, ahead of the site's posting date around it.
	if dt, ok := openingDateLine(pg.content, loc); ok {
		return dt
	}
	if dt, _, _, ok := extract.FindDate(text, loc); ok && dt.Prec >= extract.Day {
		return dt
	}
	// Essays and papers often carry only a year and month, at their end.
	if dt, _, _, ok := extract.FindDate(lastLines(pg.content, 200), loc); ok && dt.Prec >= extract.Month {
		return dt
	}
	return extract.Date{}
}

// openingDateLines is how many of the content's first lines may hold its
// own dateline.
const openingDateLines = 4

// openingDateLine is the date of a line, among the first openingDateLines
// of content, that holds nothing but a date of at least a month.
func openingDateLine(content string, loc *time.Location) (extract.Date, bool) {
	for i, line := 0, ""; i < openingDateLines && content != ""; i++ {
		line, content, _ = strings.Cut(content, "\n")
		line = strings.TrimSpace(line)
		if line == "" {
			i--
			continue
		}
		if len(line) > 40 {
			continue
		}
		if dt, start, end, ok := extract.FindDate(line, loc); ok && start == 0 && end == len(line) && dt.Prec >= extract.Month {
			return dt, true
		}
	}
	return extract.Date{}, false
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func lastLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for len(s) > 0 && !utf8Start(s[0]) {
		s = s[1:]
	}
	return s
}

func findAuthor(pg *page, z *extract.Zone, not func(string, bool) bool) string {
	ok := func(v string) bool { return v != "" && !not(v, false) }
	// Marked-up authors (itemprop, rel=author) near the content beat the
	// text rules on pages not in Chinese, whose bylines carry no cue word
	// to anchor on; Chinese pages keep their cue bylines first.
	if !pg.zh {
		if v := markupAuthors(pg.body, pg.region); ok(v) {
			return v
		}
	}
	if v := z.Author(); ok(v) {
		return v
	}
	for _, k := range authorMeta {
		// A home page after the name is not part of it: "Bradley M. Kuhn
		// (http://ebb.org/bkuhn/)"; a value that is a link is no name.
		if v := strings.TrimSpace(authorHome.ReplaceAllString(pg.head.meta[k], "")); v != "" && !strings.Contains(v, "://") && !strings.HasPrefix(v, "@") {
			if a := extract.CleanAuthor(v); ok(a) {
				return a
			}
		}
	}
	// JSON-LD authors typed Person first; one typed Organization only when
	// it is not the publisher ("Contributors to Wikimedia projects" under
	// the Wikimedia Foundation, but not "CBS News" under CBS News).
	var orgs []string
	for _, src := range pg.head.jsonLD {
		ld := jsonLDNames(src)
		if v := strings.Join(ld.people, ", "); ok(v) {
			return v
		}
		orgs = append(orgs, ld.orgs...)
	}
	var kept []string
	for _, o := range slicesx.Unique(orgs) {
		if !not(o, true) {
			kept = append(kept, o)
		}
	}
	if v := strings.Join(kept, ", "); v != "" {
		return v
	}
	return ""
}

// notAuthors tells the names that are not a page's author: the site's
// own name (og:site_name, application-name, publisher, a label of its
// host or of its canonical URL's, when the value is one word: "folha" on
// folha.uol.com.br, but not "Haki Benita" on hakibenita.com), the source outlet the page names
// (unless it is a person's name),
// and the wire agencies (extract.IsAgency). A byline that gives only
// these names says who published the story, not who wrote it.
//
// org asks of a name the page types as an Organization (a JSON-LD author):
// it is not the author either when it is the JSON-LD publisher or a
// label of the host, whatever its number of words ("CBS News" on
// cbsnews.com), since no person's site is meant.
func notAuthors(h *head, pageURL, source string) func(v string, org bool) bool {
	var names, hostLabels, publishers []string
	for _, k := range []string{"og:site_name", "application-name", "publisher", "dc.publisher"} {
		if v := h.meta[k]; v != "" {
			names = append(names, squashName(v))
		}
	}
	for _, src := range h.jsonLD {
		for _, p := range jsonLDNames(src).publishers {
			publishers = append(publishers, squashName(p))
		}
	}
	if source != "" && !extract.LooksLikeChineseName(source) {
		// A person given as the source (来源：尹娟) may be the author.
		names = append(names, squashName(source))
	}
	// The site's host, and the host the page names as its own (a copy
	// saved or served elsewhere still names its site in rel=canonical
	// and og:url).
	for _, pu := range []string{pageURL, h.canonical, h.meta["og:url"]} {
		u, err := url.Parse(pu)
		if err != nil || pu == "" {
			continue
		}
		labels := strings.Split(strings.ToLower(u.Hostname()), ".")
		for i, l := range labels {
			if len(l) > 3 && l != "www" && i < len(labels)-1 {
				hostLabels = append(hostLabels, l)
			}
		}
	}
	return func(v string, org bool) bool {
		if extract.IsAgency(v) {
			return true
		}
		sq := squashName(v)
		for _, n := range names {
			if n != "" && sq == n {
				return true
			}
		}
		if org && slices.Contains(publishers, sq) {
			return true
		}
		// A personal site is named after its author: "Haki Benita" on
		// hakibenita.com is a person; a one-word value equal to a host
		// label ("folha") is the site.
		if (org || len(strings.Fields(v)) == 1) && slices.Contains(hostLabels, sq) {
			return true
		}
		return false
	}
}

// squashName lower-cases a name and drops its spaces and punctuation.
func squashName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

func findSource(pg *page, z *extract.Zone) string {
	if v := extract.FindSource(z.Text()); v != "" {
		return v
	}
	for _, k := range sourceMeta {
		if v := pg.head.meta[k]; v != "" && !strings.Contains(v, "://") {
			return v
		}
	}
	return ""
}
