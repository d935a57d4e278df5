// Command dedupesynth writes synthetic scored docs for the scale benchmark
// of dedupe (scripts/bench/dedupe.sh): new articles, exact copies, near
// copies (one word changed, an update date added) and repeated URLs, in
// Chinese (words from internal/simweb/vocab) and English (pseudo-words),
// with the numbers of each kind on stderr. Like segment's and score's
// docs, each carries the tokens of its title and content (internal/text),
// unless -tokens=false.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/text"
)

type doc struct {
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Published string   `json:"published"`
	Content   string   `json:"content"`
	Score     float64  `json:"score"`
	Relevant  bool     `json:"relevant"`
	Tokens    []string `json:"tokens,omitempty"`
}

func main() {
	n := flag.Int("n", 1000000, "number of docs")
	zh := flag.Float64("zh", 0.5, "share of Chinese docs")
	vocab := flag.String("vocab", "internal/simweb/vocab", "directory of the *.zh.txt word lists")
	seed := flag.Uint64("seed", 1, "random seed")
	paras := flag.Int("paras", 2, "paragraphs per article (the sentences are shared among them)")
	withTokens := flag.Bool("tokens", true, "give each doc the tokens of its title and content, as segment does")
	flag.Parse()
	zhWords, err := readWords(*vocab)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dedupesynth:", err)
		os.Exit(1)
	}
	r := rand.New(rand.NewPCG(*seed, 7))
	var tok *text.Tokenizer
	if *withTokens {
		tok = text.NewTokenizer(text.Options{})
	}
	cut := func(d *doc) {
		if tok != nil {
			d.Tokens = tok.Tokens(d.Title + "\n" + d.Content)
		}
	}
	enWords := pseudoWords(r, 30000)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	const recent = 5000
	ring := make([]doc, 0, recent)
	var nNew, nExact, nNear, nURL int
	for i := 0; i < *n; i++ {
		var d doc
		p := r.Float64()
		switch {
		case len(ring) > 100 && p < 0.08:
			d = ring[r.IntN(len(ring))]
			d.URL = fmt.Sprintf("http://mirror%d.test/copy/%d", r.IntN(500), i)
			nExact++
		case len(ring) > 100 && p < 0.16:
			d = nearCopy(r, ring[r.IntN(len(ring))], zhWords, enWords)
			cut(&d)
			d.URL = fmt.Sprintf("http://mirror%d.test/near/%d", r.IntN(500), i)
			nNear++
		case len(ring) > 100 && p < 0.18:
			d = ring[r.IntN(len(ring))]
			nURL++
		default:
			d = article(r, i, r.Float64() < *zh, *paras, zhWords, enWords)
			cut(&d)
			nNew++
		}
		if len(ring) < recent {
			ring = append(ring, d)
		} else {
			ring[r.IntN(recent)] = d
		}
		enc.Encode(&d)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "dedupesynth:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "dedupesynth: %d docs: %d new, %d exact copies, %d near copies, %d repeated URLs\n", *n, nNew, nExact, nNear, nURL)
}

func readWords(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.zh.txt"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no word lists in %s (run from the repository root)", dir)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "@") {
				continue
			}
			out = append(out, strings.Fields(line)...)
		}
	}
	return out, nil
}

func pseudoWords(r *rand.Rand, n int) []string {
	syl := []string{"ka", "lo", "mi", "ten", "ra", "su", "vor", "el", "an", "quo", "de", "ris", "po", "gan", "ti", "na", "bel", "us", "or", "fi"}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := 0; k < 2+r.IntN(3); k++ {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		out[i] = b.String()
	}
	return out
}

// zipf picks word indexes with a Zipf-like skew, as in real text.
func zipf(r *rand.Rand, n int) int {
	x := r.Float64()
	return int(float64(n) * x * x * x)
}

func sentence(r *rand.Rand, zh bool, zhWords, enWords []string) string {
	k := 10 + r.IntN(12)
	ws := make([]string, k)
	for i := range ws {
		if zh {
			ws[i] = zhWords[zipf(r, len(zhWords))]
		} else {
			ws[i] = enWords[zipf(r, len(enWords))]
		}
	}
	if zh {
		return strings.Join(ws[:k/2], "") + "，" + strings.Join(ws[k/2:], "") + "。"
	}
	return strings.ToUpper(ws[0][:1]) + ws[0][1:] + " " + strings.Join(ws[1:], " ") + "."
}

func article(r *rand.Rand, i int, zh bool, np int, zhWords, enWords []string) doc {
	ns := 6 + r.IntN(6)
	np = max(1, min(np, ns))
	ss := make([]string, ns)
	for j := range ss {
		ss[j] = sentence(r, zh, zhWords, enWords)
	}
	sep := " "
	if zh {
		sep = ""
	}
	var paras []string
	for p := 0; p < np; p++ {
		paras = append(paras, strings.Join(ss[p*ns/np:(p+1)*ns/np], sep))
	}
	title := []rune(ss[0])
	if len(title) > 30 {
		title = title[:30]
	}
	return doc{
		URL:       fmt.Sprintf("http://site%d.test/article/%d.html", r.IntN(5000), i),
		Title:     strings.TrimSpace(string(title)),
		Published: fmt.Sprintf("20%02d-%02d-%02d", 15+r.IntN(11), 1+r.IntN(12), 1+r.IntN(28)),
		Content:   strings.Join(paras, "\n\n"),
		Score:     float64(r.IntN(1000)) / 1000,
		Relevant:  true,
	}
}

// nearCopy changes one word and appends an update date: the kind of
// copy a syndicating site makes.
func nearCopy(r *rand.Rand, d doc, zhWords, enWords []string) doc {
	c := d.Content
	if strings.ContainsRune(c, '。') {
		c = strings.Replace(c, zhWords[zipf(r, len(zhWords))], zhWords[r.IntN(len(zhWords))], 1)
		c += fmt.Sprintf("\n\n更新于 %d-%02d-%02d", 2020+r.IntN(6), 1+r.IntN(12), 1+r.IntN(28))
	} else {
		c = strings.Replace(c, enWords[zipf(r, len(enWords))], enWords[r.IntN(len(enWords))], 1)
		c += fmt.Sprintf("\n\nUpdated %d-%02d-%02d", 2020+r.IntN(6), 1+r.IntN(12), 1+r.IntN(28))
	}
	d.Content = c
	return d
}
