// Command agree measures how closely internal/text's Chinese segmentation
// follows gse's own, loaded with its full zh dictionary, on real pages:
// it is the quality half of scripts/bench/tokens.sh.
//
//	go run ./internal/text/gen/agree FILE|DIR ...
//
// Files ending in .html or .htm are decoded with internal/charset and
// reduced to their visible text; other files are read as UTF-8 text. Both
// sides see the same normalised text (text.Normalize) and the same filter
// (no punctuation, no stop words), so every difference is a segmentation
// difference. It prints markdown table rows.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/go-ego/gse"

	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/text/gen/pagetext"
)

func main() {
	diffs := flag.Int("diffs", 0, "print up to N differing words")
	startup := flag.Bool("startup", false, "only time gse itself: load the full zh dictionary, cut the files, report like tokenize")
	flag.Parse()
	if *startup {
		if err := gseStartup(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "agree:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(flag.Args(), *diffs); err != nil {
		fmt.Fprintln(os.Stderr, "agree:", err)
		os.Exit(1)
	}
}

type doc struct {
	name, text string
}

func run(args []string, diffs int) error {
	docs, err := readDocs(args)
	if err != nil {
		return err
	}
	if len(docs) == 0 {
		return fmt.Errorf("no documents in %v", args)
	}

	start := time.Now()
	var seg gse.Segmenter
	seg.SkipLog = true
	if err := seg.LoadDictEmbed("zh"); err != nil {
		return fmt.Errorf("load gse: %w", err)
	}
	gseLoad := time.Since(start)
	runtime.GC()

	tk := text.NewTokenizer(text.Options{})
	var (
		spanHit, spanOurs, spanRef int // word spans, stop words included
		hanHit, hanOurs, hanRef    int // the same, words with Han characters only
		bagHit, bagOurs, bagRef    int // Tokens as bags
		same                       int
		chars                      int
		ourTime, refTime           time.Duration
		shown                      int
		docF1                      []float64
	)
	for _, d := range docs {
		n := text.Normalize(d.text)
		chars += len(n)
		t0 := time.Now()
		ours := tk.Words(n)
		ourTime += time.Since(t0)
		t0 = time.Now()
		ref := keepWords(seg.Cut(n))
		refTime += time.Since(t0)

		h := spanMatches(n, ours, ref)
		spanHit += h
		spanOurs += len(ours)
		spanRef += len(ref)
		ho, hr := hanOnly(ours), hanOnly(ref)
		hanHit += spanMatches(n, ho, hr)
		hanOurs += len(ho)
		hanRef += len(hr)
		if h == len(ours) && h == len(ref) {
			same++
		}
		docF1 = append(docF1, f1(h, len(ours), len(ref)))

		ot, rt := dropStop(tk, ours), dropStop(tk, ref)
		bh := bagMatches(ot, rt)
		bagHit += bh
		bagOurs += len(ot)
		bagRef += len(rt)

		if diffs > shown {
			shown += printDiffs(d.name, n, ours, ref, diffs-shown)
		}
	}
	sort.Float64s(docF1)
	fmt.Printf("| tokens | documents (%d chars normalised) | %d | |\n", chars, len(docs))
	fmt.Printf("| tokens | word-span F1 vs gse full zh (all words) | %.4f | ≥ 0.99 |\n",
		f1(spanHit, spanOurs, spanRef))
	fmt.Printf("| tokens | word-span F1 vs gse full zh (Chinese words) | %.4f | ≥ 0.99 |\n",
		f1(hanHit, hanOurs, hanRef))
	fmt.Printf("| tokens | token bag F1 vs gse full zh (Tokens) | %.4f | ≥ 0.99 |\n",
		f1(bagHit, bagOurs, bagRef))
	fmt.Printf("| tokens | worst document word-span F1 | %.4f | |\n", docF1[0])
	fmt.Printf("| tokens | documents segmented identically | %d/%d | |\n", same, len(docs))
	fmt.Printf("| tokens | gse full zh load (reference, in process) | %.2f s | |\n", gseLoad.Seconds())
	fmt.Printf("| tokens | segmentation speed, ours | %.1f MB/s | |\n", mbps(chars, ourTime))
	fmt.Printf("| tokens | segmentation speed, gse Cut | %.1f MB/s | |\n", mbps(chars, refTime))
	return nil
}

// gseStartup is the reference for the start-up figures: what a stage
// would pay using gse directly with its full zh dictionary.
func gseStartup(args []string) error {
	start := time.Now()
	docs, err := readDocs(args)
	if err != nil {
		return err
	}
	var seg gse.Segmenter
	seg.SkipLog = true
	if err := seg.LoadDictEmbed("zh"); err != nil {
		return err
	}
	var first time.Duration
	words := 0
	for _, d := range docs {
		words += len(seg.Cut(text.Normalize(d.text)))
		if first == 0 {
			first = time.Since(start)
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Fprintf(os.Stderr, "first_tokens_ms=%.1f words=%d maxrss_kb=%d\n",
		float64(first.Microseconds())/1000, words, ru.Maxrss)
	return nil
}

func mbps(n int, d time.Duration) float64 {
	if d <= 0 {
		return math.Inf(1)
	}
	return float64(n) / 1e6 / d.Seconds()
}

func f1(hit, ours, ref int) float64 {
	if ours == 0 && ref == 0 {
		return 1
	}
	if hit == 0 {
		return 0
	}
	p, r := float64(hit)/float64(ours), float64(hit)/float64(ref)
	return 2 * p * r / (p + r)
}

// keepWords applies the filter of Tokenizer.Words to gse's output.
func keepWords(ws []string) []string {
	out := ws[:0]
	for _, w := range ws {
		if strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

// hanOnly keeps the words with a Han character: the Chinese words, which
// are what the two cuts are meant to agree on (ours keeps Hangul and other
// non-CJK scripts' runs whole where gse cuts them into characters).
func hanOnly(ws []string) []string {
	var out []string
	for _, w := range ws {
		if strings.IndexFunc(w, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

func dropStop(tk *text.Tokenizer, ws []string) []string {
	var out []string
	for _, w := range ws {
		if !tk.IsStopword(w) {
			out = append(out, w)
		}
	}
	return out
}

// spanMatches counts the words of a and b that cover the same bytes of
// the normalised text n: each word is located by searching n from the end
// of the previous one, so a difference in one place does not shift the
// rest.
func spanMatches(n string, a, b []string) int {
	set := map[[2]int]bool{}
	for _, s := range spans(n, a) {
		set[s] = true
	}
	hit := 0
	for _, s := range spans(n, b) {
		if set[s] {
			hit++
		}
	}
	return hit
}

func spans(n string, ws []string) [][2]int {
	out := make([][2]int, 0, len(ws))
	at := 0
	for _, w := range ws {
		i := strings.Index(n[at:], w)
		if i < 0 {
			continue // cannot happen: words are substrings in order
		}
		out = append(out, [2]int{at + i, at + i + len(w)})
		at += i + len(w)
	}
	return out
}

func bagMatches(a, b []string) int {
	m := map[string]int{}
	for _, w := range a {
		m[w]++
	}
	hit := 0
	for _, w := range b {
		if m[w] > 0 {
			m[w]--
			hit++
		}
	}
	return hit
}

// printDiffs prints the stretches of n where the two cuts disagree.
func printDiffs(name, n string, ours, ref []string, max int) int {
	a, b := spans(n, ours), spans(n, ref)
	shown := 0
	i, j := 0, 0
	for (i < len(a) || j < len(b)) && shown < max {
		if i < len(a) && j < len(b) && a[i] == b[j] {
			i++
			j++
			continue
		}
		// Advance both sides to the next shared boundary.
		var o, r []string
		end := 0
		for {
			switch {
			case i < len(a) && (j >= len(b) || a[i][0] <= b[j][0]):
				o = append(o, n[a[i][0]:a[i][1]])
				end = max2(end, a[i][1])
				i++
			case j < len(b):
				r = append(r, n[b[j][0]:b[j][1]])
				end = max2(end, b[j][1])
				j++
			}
			ia := i >= len(a) || a[i][0] >= end
			jb := j >= len(b) || b[j][0] >= end
			if ia && jb {
				break
			}
		}
		fmt.Fprintf(os.Stderr, "%s: ours %q gse %q\n", name, o, r)
		shown++
	}
	return shown
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func readDocs(args []string) ([]doc, error) {
	var docs []doc
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		files := []string{a}
		if st.IsDir() {
			ents, err := os.ReadDir(a)
			if err != nil {
				return nil, err
			}
			files = files[:0]
			for _, e := range ents {
				if !e.IsDir() {
					files = append(files, filepath.Join(a, e.Name()))
				}
			}
		}
		for _, f := range files {
			t, err := pagetext.Read(f)
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc{name: filepath.Base(f), text: t})
		}
	}
	return docs, nil
}
