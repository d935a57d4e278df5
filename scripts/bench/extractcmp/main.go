// Command extractcmp runs go-trafilatura, go-readability and (-x
// domdistiller) go-domdistiller over the
// extraction development sets and scores them with segment's own eval
// (internal/segmenter/eval: the same loaders, the same bag-of-tokens
// metric, the same title, author and date comparisons), so that the three
// extractors are measured side by side. It lives in its own module so that
// the project's go.mod never carries the two extractors.
//
//	go run . [-sets aeb,readability] [-dump FILE] [DATA_DIR]
//
// prints one markdown row per extractor and set.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	nurl "net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/net/html"

	readability "github.com/go-shiori/go-readability"
	distiller "github.com/markusmobius/go-domdistiller"
	"github.com/markusmobius/go-trafilatura"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/segmenter/eval"
)

type extractor struct {
	name string
	run  func(record.Page) record.Doc
}

func main() {
	sets := flag.String("sets", strings.Join(eval.Sets, ","), "comma-separated sets")
	only := flag.String("x", "trafilatura,readability", "extractors to run")
	titles := flag.String("titles", "", "gold titles kept apart (`FILE`: set, id, title lines)")
	dump := flag.String("dump", "", "write one JSON line per page and extractor to `FILE`")
	flag.Parse()
	dir := "../shared/data"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	base := filepath.Join(dir, "extraction")
	var enc *json.Encoder
	if *dump != "" {
		f, err := os.Create(*dump)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		enc = json.NewEncoder(f)
		enc.SetEscapeHTML(false)
	}
	var xs []extractor
	for _, n := range strings.Split(*only, ",") {
		switch n {
		case "trafilatura":
			xs = append(xs, extractor{n, runTrafilatura})
		case "readability":
			xs = append(xs, extractor{n, runReadability})
		case "domdistiller":
			xs = append(xs, extractor{n, runDistiller})
		default:
			log.Fatalf("-x: unknown extractor %q (trafilatura, readability, domdistiller)", n)
		}
	}
	fmt.Println("| extractor | set | pages | content P | content R | content F1 | title exact | author | published |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, set := range strings.Split(*sets, ",") {
		cases, err := eval.Load(base, strings.TrimSpace(set), segmenter.HTMLText)
		if err != nil {
			log.Fatal(err)
		}
		if *titles != "" {
			if err := eval.LoadTitles(*titles, cases); err != nil {
				log.Fatal(err)
			}
		}
		for _, x := range xs {
			results, s := eval.Score(cases, x.run)
			fmt.Printf("| %s | %s | %d | %.3f | %.3f | %.3f | %s | %s | %s |\n", x.name, s.Set, s.Pages, s.P, s.R, s.F,
				eval.Pct(s.TitlesOK, s.Titles), eval.Pct(s.AuthorsOK, s.Authors), eval.Pct(s.DatesOK, s.Dates))
			if enc != nil {
				for _, r := range results {
					enc.Encode(map[string]any{"x": x.name, "set": r.Set, "id": r.ID, "f1": r.F, "p": r.P, "r": r.R,
						"title": r.Got.Title, "author": r.Got.Author, "published": r.Got.Published, "content": r.Got.Content})
				}
			}
		}
	}
}

// date writes a time as the project does: a day when no time of day is
// known.
func date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format(time.RFC3339)
}

func runTrafilatura(p record.Page) (d record.Doc) {
	defer func() {
		if e := recover(); e != nil {
			d = record.Doc{URL: p.URL, Error: fmt.Sprint(e)}
		}
	}()
	u, _ := nurl.Parse(p.URL)
	r, err := trafilatura.Extract(strings.NewReader(p.HTML), trafilatura.Options{OriginalURL: u, EnableFallback: true})
	if err != nil || r == nil {
		return record.Doc{URL: p.URL}
	}
	return record.Doc{URL: p.URL, Title: r.Metadata.Title, Author: r.Metadata.Author,
		Published: date(r.Metadata.Date), Content: r.ContentText}
}

func runReadability(p record.Page) (d record.Doc) {
	defer func() {
		if e := recover(); e != nil {
			d = record.Doc{URL: p.URL, Error: fmt.Sprint(e)}
		}
	}()
	u, _ := nurl.Parse(p.URL)
	a, err := readability.FromReader(bytes.NewReader([]byte(p.HTML)), u)
	if err != nil {
		return record.Doc{URL: p.URL}
	}
	d = record.Doc{URL: p.URL, Title: a.Title, Author: a.Byline, Content: segmenter.HTMLText(a.Content)}
	if a.PublishedTime != nil {
		d.Published = date(*a.PublishedTime)
	}
	return d
}

func runDistiller(p record.Page) (d record.Doc) {
	defer func() {
		if e := recover(); e != nil {
			d = record.Doc{URL: p.URL, Error: fmt.Sprint(e)}
		}
	}()
	u, _ := nurl.Parse(p.URL)
	r, err := distiller.ApplyForReader(strings.NewReader(p.HTML), &distiller.Options{OriginalURL: u, SkipPagination: true})
	if err != nil || r == nil {
		return record.Doc{URL: p.URL}
	}
	d = record.Doc{URL: p.URL, Title: r.Title, Author: r.MarkupInfo.Author, Content: r.Text}
	if r.Node != nil {
		var b bytes.Buffer
		if html.Render(&b, r.Node) == nil {
			d.Content = segmenter.HTMLText(b.String())
		}
	}
	return d
}
