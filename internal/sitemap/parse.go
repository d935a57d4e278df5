package sitemap

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Entry is one <url> of a sitemap, or one <sitemap> of an index.
type Entry struct {
	Loc string
	// LastMod is the lastmod as written (W3C datetime).
	LastMod    string
	ChangeFreq string
	// Priority is the sitemap's priority hint, 0 when absent.
	Priority float64
}

// Modified parses LastMod; ok is false when it is absent or unreadable.
func (e Entry) Modified() (t time.Time, ok bool) {
	return ParseTime(e.LastMod)
}

// W3C datetime layouts sitemaps use, most precise first.
var layouts = []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02", "2006-01", "2006"}

// ParseTime reads a W3C datetime (2024-05-01, 2024-05-01T10:00:00+08:00 …).
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// Handler hears the entries of a sitemap as they are read. Either may be
// nil; an error it returns stops the parse.
type Handler struct {
	URL     func(Entry) error
	Sitemap func(Entry) error
}

// ErrNotSitemap marks a document that is neither a urlset, a sitemap index
// nor a text list of URLs.
var ErrNotSitemap = errors.New("not a sitemap")

// Parse reads one sitemap, sitemap index or text sitemap from r, gzip
// compressed or not, and passes its entries to h.
func Parse(r io.Reader, h Handler) error { return ParseLimit(r, h, 0) }

// ParseLimit is Parse that fails with ErrTooLarge past max bytes of
// (decompressed) sitemap; 0 means no limit.
func ParseLimit(r io.Reader, h Handler, max int64) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(limit(zr, max), 64<<10)
	} else {
		br = bufio.NewReaderSize(limit(br, max), 64<<10)
	}
	head, _ := br.Peek(512)
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] != '<' {
		return parseText(br, h)
	}
	return parseXML(br, h)
}

// limit fails reads past max bytes.
func limit(r io.Reader, max int64) io.Reader {
	if max <= 0 {
		return r
	}
	return &limitedReader{r: r, left: max}
}

type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// xmlEntry is either element, with the fields both share.
type xmlEntry struct {
	Loc        string `xml:"loc"`
	LastMod    string `xml:"lastmod"`
	ChangeFreq string `xml:"changefreq"`
	Priority   string `xml:"priority"`
}

func (x xmlEntry) entry() Entry {
	e := Entry{Loc: strings.TrimSpace(x.Loc), LastMod: strings.TrimSpace(x.LastMod), ChangeFreq: strings.TrimSpace(x.ChangeFreq)}
	if p, err := strconv.ParseFloat(strings.TrimSpace(x.Priority), 64); err == nil && p >= 0 && p <= 1 {
		e.Priority = p
	}
	return e
}

func parseXML(r io.Reader, h Handler) error {
	dec := xml.NewDecoder(r)
	dec.Strict = false
	dec.CharsetReader = charsetReader
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if root == "" {
				return ErrNotSitemap
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("sitemap XML: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "urlset", "sitemapindex":
			root = se.Name.Local
		case "url", "sitemap":
			if root == "" {
				return fmt.Errorf("%w: <%s> outside <urlset> or <sitemapindex>", ErrNotSitemap, se.Name.Local)
			}
			var x xmlEntry
			if err := dec.DecodeElement(&x, &se); err != nil {
				return fmt.Errorf("sitemap XML: <%s>: %w", se.Name.Local, err)
			}
			e := x.entry()
			if e.Loc == "" {
				continue
			}
			f := h.URL
			if se.Name.Local == "sitemap" {
				f = h.Sitemap
			}
			if f != nil {
				if err := f(e); err != nil {
					return err
				}
			}
		default:
			if root == "" {
				return fmt.Errorf("%w: the root element is <%s>", ErrNotSitemap, se.Name.Local)
			}
		}
	}
}

// charsetReader accepts the UTF-8 spellings sitemaps use; sitemaps must be
// UTF-8 (sitemaps.org), so other encodings are read as such too.
func charsetReader(label string, r io.Reader) (io.Reader, error) {
	return r, nil
}

func parseText(r io.Reader, h Handler) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasPrefix(line, "http://") && !strings.HasPrefix(line, "https://") {
			if n == 0 {
				return ErrNotSitemap
			}
			continue
		}
		n++
		if h.URL != nil {
			if err := h.URL(Entry{Loc: line}); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// RobotsSitemaps returns the Sitemap: lines of a robots.txt, in order.
// It reads the lines itself rather than through robotstxt's Sitemaps
// field: that parser drops every sitemap when any rule line is malformed
// (a Disallow before the first User-agent, a non-numeric Crawl-delay),
// and keeps junk for an empty value or a space before the colon
// (TestRobotsSitemaps). Sitemap lines belong to no group, so a broken
// group must not cost them.
func RobotsSitemaps(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "sitemap") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out, sc.Err()
}
