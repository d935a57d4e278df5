package segmenter

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/extract"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// publishedMeta are meta names and properties holding the publication
// time, in order of trust.
var publishedMeta = []string{
	"article:published_time", "og:article:published_time", "published_time", "datepublished",
	"pubdate", "publishdate", "publish-date", "publish_date", "publishedtime", "publication_date",
	"parsely-pub-date", "sailthru.date", "dc.date.issued", "dcterms.issued", "dc.date",
	"dcterms.created", "dc.date.created", "article.published", "weibo:article:create_at",
	"firstpublishedtime", "pubtime", "createdate", "og:pubdate", "date", "og:updated_time",
	"article:modified_time",
}

var authorMeta = []string{
	"author", "article:author", "byl", "dc.creator", "dcterms.creator", "sailthru.author",
	"parsely-author", "twitter:creator", "og:article:author",
}

var sourceMeta = []string{"source", "og:site_name", "application-name", "publisher", "dc.publisher"}

// dateCue introduces a publication time in visible text.
var dateCue = regexp.MustCompile(`(?i)(发布时间|发布日期|发表时间|发表日期|发表于|发布于|发稿时间|时间|日期|更新时间|Published( on)?|Posted( on)?|Updated( on)?|Date)\s*[:：]?\s*`)

// jsonLDField finds "field": "value" pairs in JSON-LD text when it does
// not decode (it often does not: trailing commas, several objects).
func jsonLDField(src, field string) string {
	re := regexp.MustCompile(`"` + field + `"\s*:\s*"([^"]{1,200})"`)
	if m := re.FindStringSubmatch(src); m != nil {
		return m[1]
	}
	return ""
}

// jsonLDAuthor reads author names from decoded JSON-LD.
func jsonLDAuthor(src string) string {
	var v any
	if err := json.Unmarshal([]byte(src), &v); err != nil {
		return ""
	}
	var names []string
	var walk func(any, bool)
	walk = func(x any, isAuthor bool) {
		switch t := x.(type) {
		case map[string]any:
			if isAuthor {
				if n, ok := t["name"].(string); ok && n != "" {
					names = append(names, n)
					return
				}
			}
			for k, vv := range t {
				if k == "author" || k == "creator" {
					walk(vv, true)
				} else if k == "@graph" {
					walk(vv, false)
				}
			}
		case []any:
			for _, e := range t {
				walk(e, isAuthor)
			}
		case string:
			if isAuthor && t != "" && !strings.HasPrefix(t, "http") {
				names = append(names, t)
			}
		}
	}
	walk(v, false)
	return strings.Join(uniq(names), ", ")
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// metadata fills published, author and source by generic rules.
func (sg *Segmenter) metadata(d *record.Doc, pg *page, loc *time.Location) {
	d.Published = findPublished(pg, loc)
	d.Author = findAuthor(pg)
	d.Source = findSource(pg)
}

// findPublished tries the metadata first; a date-only value is refined
// by a time of day on the same date in the visible text.
func findPublished(pg *page, loc *time.Location) string {
	d := findPublishedDate(pg, loc)
	if d.Prec != extract.Day {
		return d.String()
	}
	text := headerZone(pg)
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
	return d.String()
}

func findPublishedDate(pg *page, loc *time.Location) extract.Date {
	h := pg.head
	for _, k := range publishedMeta {
		if v := h.meta[k]; v != "" {
			if dt, ok := extract.ParseDate(v, loc); ok && dt.Prec >= extract.Day {
				return dt
			}
		}
	}
	for _, src := range h.jsonLD {
		for _, f := range []string{"datePublished", "dateCreated", "uploadDate"} {
			if v := jsonLDField(src, f); v != "" {
				if dt, ok := extract.ParseDate(v, loc); ok {
					return dt
				}
			}
		}
	}
	for _, v := range h.timeAttrs {
		if dt, ok := extract.ParseDate(v, loc); ok && dt.Prec >= extract.Day {
			return dt
		}
	}
	// Visible text: a date after a cue word, then the first full date
	// before or at the start of the main content, then the first one.
	text := headerZone(pg)
	for _, m := range dateCue.FindAllStringIndex(text, 16) {
		rest := text[m[1]:min(len(text), m[1]+60)]
		if dt, s, _, ok := extract.FindDate(rest, loc); ok && s < 12 && dt.Prec >= extract.Day {
			return dt
		}
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

// headerZone is the text where article metadata lives: everything up to
// the first 300 bytes of the main content, then the rest of the content's
// first and last lines.
func headerZone(pg *page) string {
	text := pg.text
	c := pg.content
	if c == "" {
		return text
	}
	first := c
	if len(first) > 200 {
		first = first[:200]
		first = strings.ToValidUTF8(first, "")
	}
	if i := strings.Index(text, firstLine(first)); i >= 0 {
		end := min(len(text), i+600)
		for end < len(text) && !utf8Start(text[end]) {
			end++
		}
		zone := text[:end] + "\n" + lastLines(c, 400)
		// What follows the content: 编辑, （记者 … 报道）, source lines.
		last := firstLine(lastLines(c, 120))
		if j := strings.LastIndex(text, last); j >= 0 && j+len(last) < len(text) {
			after := text[j+len(last):]
			if len(after) > 400 {
				after = strings.ToValidUTF8(after[:400], "")
			}
			zone += "\n" + after
		}
		return zone
	}
	return text
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}

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

func findAuthor(pg *page) string {
	zone := headerZone(pg)
	if v := extract.FindAuthor(zone); v != "" {
		return v
	}
	for _, k := range authorMeta {
		if v := pg.head.meta[k]; v != "" && !strings.Contains(v, "://") && !strings.HasPrefix(v, "@") {
			if a := extract.CleanAuthor(v); a != "" {
				return a
			}
		}
	}
	for _, src := range pg.head.jsonLD {
		if v := jsonLDAuthor(src); v != "" {
			return v
		}
	}
	return ""
}

func findSource(pg *page) string {
	if v := extract.FindSource(headerZone(pg)); v != "" {
		return v
	}
	for _, k := range sourceMeta {
		if v := pg.head.meta[k]; v != "" && !strings.Contains(v, "://") {
			return v
		}
	}
	return ""
}
