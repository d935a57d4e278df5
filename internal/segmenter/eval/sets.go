package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/focuscrawl/focuscrawl/internal/charset"
)

// Case is one page with its gold answers. Empty gold fields are not
// scored.
type Case struct {
	Set, ID, URL string
	// HTML is the page decoded to UTF-8 by internal/charset.
	HTML                              string
	Content, Title, Author, Published string
	HasTitle                          bool
	// NoAuthor: the hand-checked gold says the page names no person as
	// its author (only a site, an agency or an editor): right when
	// segment gives none.
	NoAuthor bool
}

// unknown gold values mean "the page has none".
func known(v string) string {
	v = strings.TrimSpace(v)
	switch strings.ToUpper(v) {
	case "UNKNOWN", "UNKNWON", "NULL", "NONE":
		return ""
	}
	return v
}

func decode(raw []byte) (string, error) {
	s, _, err := charset.Decode(raw, "text/html")
	return s, err
}

// LoadAEB reads the article-extraction-benchmark set: ground-truth.json
// and html/<id>.html.gz.
func LoadAEB(dir string) ([]Case, error) {
	b, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		return nil, fmt.Errorf("aeb: %w", err)
	}
	var gt map[string]struct {
		ArticleBody string `json:"articleBody"`
		URL         string `json:"url"`
	}
	if err := json.Unmarshal(b, &gt); err != nil {
		return nil, fmt.Errorf("aeb ground-truth.json: %w", err)
	}
	ids := make([]string, 0, len(gt))
	for id := range gt {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []Case
	for _, id := range ids {
		raw, err := readMaybeGzip(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			return nil, fmt.Errorf("aeb %s: %w", id, err)
		}
		h, err := decode(raw)
		if err != nil {
			return nil, fmt.Errorf("aeb %s: %w", id, err)
		}
		out = append(out, Case{Set: "aeb", ID: id, URL: gt[id].URL, HTML: h, Content: gt[id].ArticleBody})
	}
	return out, nil
}

func readMaybeGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return io.ReadAll(zr)
}

// LoadReadability reads Mozilla readability's test pages: <case>/
// source.html, expected.html and expected-metadata.json. The expected
// HTML is turned to text by render, the segmenter's own HTML-to-text.
func LoadReadability(dir string, render func(html string) string) ([]Case, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("readability: %w", err)
	}
	var out []Case
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		cd := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(filepath.Join(cd, "source.html"))
		if err != nil {
			continue
		}
		exp, err := os.ReadFile(filepath.Join(cd, "expected.html"))
		if err != nil {
			continue
		}
		var md struct {
			Title         *string `json:"title"`
			Byline        *string `json:"byline"`
			PublishedTime *string `json:"publishedTime"`
		}
		if b, err := os.ReadFile(filepath.Join(cd, "expected-metadata.json")); err == nil {
			if err := json.Unmarshal(b, &md); err != nil {
				return nil, fmt.Errorf("readability %s metadata: %w", e.Name(), err)
			}
		}
		h, err := decode(src)
		if err != nil {
			return nil, fmt.Errorf("readability %s: %w", e.Name(), err)
		}
		c := Case{Set: "readability", ID: e.Name(), URL: "http://fakehost/test/page.html", HTML: h, Content: render(string(exp))}
		if md.Title != nil {
			c.Title, c.HasTitle = *md.Title, *md.Title != ""
		}
		if md.Byline != nil {
			c.Author = known(*md.Byline)
		}
		if md.PublishedTime != nil {
			c.Published = known(*md.PublishedTime)
		}
		out = append(out, c)
	}
	return out, nil
}

// LoadCWCE reads the Chinese set: gold.jsonl and the raw pages it names.
func LoadCWCE(dir string) ([]Case, error) { return LoadGold(dir, "cwce-dev") }

// LoadGold reads a set in the gold.jsonl layout (cwce-dev, cleaneval-dev,
// cleanportal, pagesignal): one JSON object a line with id, file (the raw
// page, any charset, relative to dir), content, and where known url, title,
// author and published. A page without a url gets a made-up one on the
// set's own host, so that links still resolve.
func LoadGold(dir, set string) ([]Case, error) {
	f, err := os.Open(filepath.Join(dir, "gold.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", set, err)
	}
	defer f.Close()
	var out []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		var g struct {
			ID, File, URL, Content, Title, Author, Published string
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return nil, fmt.Errorf("%s gold.jsonl:%d: %w", set, line, err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, g.File))
		if err != nil {
			return nil, fmt.Errorf("%s gold.jsonl:%d: %w", set, line, err)
		}
		h, err := decode(raw)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", set, g.ID, err)
		}
		u := g.URL
		if u == "" {
			u = "http://" + set + ".example/" + g.ID + ".html"
		}
		c := Case{Set: set, ID: g.ID, URL: u, HTML: h,
			Content: g.Content, Author: known(g.Author), Published: known(g.Published)}
		if t := known(g.Title); t != "" {
			c.Title, c.HasTitle = t, true
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// Sets are the development sets Load knows, in the order they are reported.
var Sets = []string{"aeb", "readability", "cwce-dev", "cleaneval-dev", "cleanportal", "pagesignal"}

// Load reads one of Sets from base (the extraction folder). render turns
// readability's expected HTML into text.
func Load(base, set string, render func(string) string) ([]Case, error) {
	dir := filepath.Join(base, set)
	switch set {
	case "aeb":
		return LoadAEB(dir)
	case "readability":
		return LoadReadability(dir, render)
	case "cwce-dev", "cleaneval-dev", "cleanportal", "pagesignal":
		return LoadGold(dir, set)
	}
	return nil, fmt.Errorf("unknown set %q (%s)", set, strings.Join(Sets, ", "))
}

// LoadAuthors reads hand-checked authors kept apart from a set (one JSON
// object a line: set, id, author, why) and puts them in place of the
// set's own gold on the matching cases. An empty author says the page
// names no person as its author. A line naming no case is an error, so a
// renamed page is not skipped without a word.
func LoadAuthors(path string, cases []Case) error {
	loaded := map[string]bool{}
	for i := range cases {
		loaded[cases[i].Set] = true
	}
	return readCaseLines(path, cases, func(line int, b []byte, c func(set, id string) *Case) error {
		var g struct {
			Set, ID string
			Author  *string
		}
		if err := json.Unmarshal(b, &g); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if g.Author == nil {
			return fmt.Errorf("%s:%d: no \"author\" key", path, line)
		}
		k := c(g.Set, g.ID)
		if k == nil {
			if loaded[g.Set] {
				return fmt.Errorf("%s:%d: no page %q in set %s", path, line, g.ID, g.Set)
			}
			return nil // a set not run
		}
		k.Author, k.NoAuthor = strings.TrimSpace(*g.Author), strings.TrimSpace(*g.Author) == ""
		return nil
	})
}

// LoadTitles reads gold titles kept apart from a set (one JSON object a
// line: set, id, title) and sets them on the matching cases.
func LoadTitles(path string, cases []Case) error {
	return readCaseLines(path, cases, func(line int, b []byte, c func(set, id string) *Case) error {
		var g struct{ Set, ID, Title string }
		if err := json.Unmarshal(b, &g); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if k := c(g.Set, g.ID); k != nil && g.Title != "" {
			k.Title, k.HasTitle = g.Title, true
		}
		return nil
	})
}

// readCaseLines calls fn with each line of path (its number from 1 and
// its bytes) and a look-up of cases by set and id: the files of gold kept
// apart from the sets, one JSON object a line.
func readCaseLines(path string, cases []Case, fn func(line int, b []byte, c func(set, id string) *Case) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	byKey := map[[2]string]*Case{}
	for i := range cases {
		byKey[[2]string{cases[i].Set, cases[i].ID}] = &cases[i]
	}
	find := func(set, id string) *Case { return byKey[[2]string{set, id}] }
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if err := fn(line, sc.Bytes(), find); err != nil {
			return err
		}
	}
	return sc.Err()
}
