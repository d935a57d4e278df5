// Command tokenize is the start-up and speed half of
// scripts/bench/tokens.sh: a minimal program that links internal/text the
// way a stage does, tokenizes the files given and reports, on stderr, the
// time from main to the first tokens, the total time and the peak RSS.
//
//	go build -trimpath -o /tmp/tokenize ./internal/text/gen/tokenize
//	/tmp/tokenize [-dict WORDS] [-print] FILE ...
//	/tmp/tokenize -page FILE.html ... > pages.jsonl   # page records for timing segment
//
// Files ending in .html or .htm are decoded with internal/charset and
// reduced to their text; other files are read as UTF-8.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/charset"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/text/gen/pagetext"
)

func main() {
	start := time.Now()
	dict := flag.String("dict", "", "comma-separated domain words")
	print := flag.Bool("print", false, "print the tokens of each file, space-separated")
	page := flag.Bool("page", false, "only write each HTML file as a page record (UTF-8), for timing a stage")
	flag.Parse()
	if *page {
		if err := writePages(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "tokenize:", err)
			os.Exit(1)
		}
		return
	}
	var words []string
	if *dict != "" {
		words = strings.Split(*dict, ",")
	}
	tk := text.NewTokenizer(text.Options{Dictionary: words})
	var first time.Duration
	tokens, bytesIn := 0, 0
	var tokTime time.Duration
	for _, f := range flag.Args() {
		s, err := pagetext.Read(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tokenize:", err)
			os.Exit(1)
		}
		t0 := time.Now()
		ts := tk.Tokens(s)
		tokTime += time.Since(t0)
		if first == 0 {
			first = time.Since(start)
		}
		tokens += len(ts)
		bytesIn += len(s)
		if *print {
			fmt.Println(strings.Join(ts, " "))
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Fprintf(os.Stderr, "first_tokens_ms=%.1f total_ms=%.1f tokenize_ms=%.1f tokens=%d bytes=%d maxrss_kb=%d chinese_loaded=%v\n",
		ms(first), ms(time.Since(start)), ms(tokTime), tokens, bytesIn, ru.Maxrss, text.Loaded())
}

// writePages writes one page record per file, its body decoded to UTF-8.
func writePages(files []string) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		u, cs, err := charset.Decode(b, "")
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		p := record.Page{URL: "http://pages.test/" + filepath.Base(f), Status: 200,
			ContentType: "text/html", Charset: cs, HTML: u}
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
