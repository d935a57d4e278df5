// Command tokenize is the start-up and speed half of
// scripts/bench/tokens.sh: a minimal program that links internal/text the
// way a stage does, tokenizes the files given and reports, on stderr, the
// time from main to the first tokens, the total time and the peak RSS.
//
//	go build -trimpath -o /tmp/tokenize ./internal/text/gen/tokenize
//	/tmp/tokenize [-dict WORDS] [-print] FILE ...
//
// Files ending in .html or .htm are decoded with internal/charset and
// reduced to their text; other files are read as UTF-8.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/html"

	"github.com/focuscrawl/focuscrawl/internal/charset"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

func main() {
	start := time.Now()
	dict := flag.String("dict", "", "comma-separated domain words")
	print := flag.Bool("print", false, "print the tokens of each file, space-separated")
	flag.Parse()
	var words []string
	if *dict != "" {
		words = strings.Split(*dict, ",")
	}
	tk := text.NewTokenizer(text.Options{Dictionary: words})
	var first time.Duration
	tokens, bytesIn := 0, 0
	var tokTime time.Duration
	for _, f := range flag.Args() {
		s, err := read(f)
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

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func read(f string) (string, error) {
	b, err := os.ReadFile(f)
	if err != nil {
		return "", err
	}
	if ext := strings.ToLower(filepath.Ext(f)); ext != ".html" && ext != ".htm" {
		return string(b), nil
	}
	u, _, err := charset.Decode(b, "")
	if err != nil {
		return "", fmt.Errorf("%s: %w", f, err)
	}
	return visibleText(u), nil
}

// visibleText returns the text of an HTML document outside script, style
// and similar elements.
func visibleText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b bytes.Buffer
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				fmt.Fprintln(os.Stderr, "tokenize: html:", z.Err())
			}
			return b.String()
		case html.StartTagToken:
			if isHidden(z) {
				skip++
			}
		case html.EndTagToken:
			if isHidden(z) && skip > 0 {
				skip--
			}
			b.WriteByte('\n')
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		}
	}
}

func isHidden(z *html.Tokenizer) bool {
	name, _ := z.TagName()
	switch string(name) {
	case "script", "style", "noscript", "template", "svg":
		return true
	}
	return false
}
