// Command trainparagraphs measures a learned paragraph classifier for
// segment's content on the development sets, each set held out in turn
// (docs/segment.md, "A learned paragraph classifier"): the model did not
// beat the rules on unseen sets, so segment does not use it, and this
// command is how to measure the next attempt.
//
//	go run ./scripts/trainparagraphs ../shared/data
//
// Every page of the six sets is split into its paragraphs with their
// features (segmenter.Paragraphs); a paragraph is content when at least
// half of its tokens are gold tokens not yet claimed by an earlier
// paragraph. A logistic regression (L2, Newton's method) is fitted with
// each set weighing the same and each paragraph weighing its share of its
// page's tokens, as the eval averages F1 over pages. Leave-one-set-out:
// for each set, the model and its threshold are chosen on the other five
// and scored on it (thresholds chosen on out-of-set predictions of the
// five); then the model of all six is fitted and its weights printed.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/segmenter/eval"
)

// page is one page's paragraphs, their labels and token bags.
type page struct {
	set    string
	gold   map[string]int
	first  map[string]int // the rules' answer: the kept paragraphs
	x      [][]float64
	y      []bool
	w      []float64
	bags   []map[string]int
	weight float64
}

func main() {
	lambda := flag.Float64("lambda", 1e-3, "L2 penalty")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: trainparagraphs [-lambda L] DATA_DIR")
		os.Exit(2)
	}
	pages, err := load(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "trainparagraphs:", err)
		os.Exit(1)
	}
	names := segmenter.ParagraphFeatureNames()
	fmt.Printf("| held-out set | pages | rules F1 | model F1 (P / R) | threshold |\n|---|---|---|---|---|\n")
	var sumRules, sumModel float64
	for _, held := range eval.Sets {
		var train, test []*page
		for _, p := range pages {
			if p.set == held {
				test = append(test, p)
			} else {
				train = append(train, p)
			}
		}
		w := fit(train, len(names), *lambda)
		th := nestedThreshold(train, len(names), *lambda)
		_, _, rf := score(test, nil, thresholds{})
		p, r, f := score(test, w, th)
		sumRules += rf
		sumModel += f
		fmt.Printf("| %s | %d | %.3f | %.3f (%.3f / %.3f) | %.2f / %.2f |\n", held, len(test), rf, f, p, r, th.add, th.drop)
	}
	fmt.Printf("| mean | | %.4f | %.4f | |\n", sumRules/6, sumModel/6)
	w := fit(pages, len(names), *lambda)
	th := nestedThreshold(pages, len(names), *lambda)
	fmt.Printf("\nall six sets: thresholds add %.2f drop %.2f\n", th.add, th.drop)
	for _, set := range eval.Sets {
		var ps []*page
		for _, p := range pages {
			if p.set == set {
				ps = append(ps, p)
			}
		}
		_, _, rf := score(ps, nil, thresholds{})
		p, r, f := score(ps, w, th)
		fmt.Printf("  %-14s rules %.3f model %.3f (%.3f / %.3f)\n", set, rf, f, p, r)
	}
	for i, n := range names {
		fmt.Printf("  %-22s %+.3f\n", n, w[i])
	}
}

// load reads the sets and labels every paragraph.
func load(dir string) ([]*page, error) {
	var pages []*page
	for _, set := range eval.Sets {
		cases, err := eval.Load(filepath.Join(dir, "extraction"), set, segmenter.HTMLText)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			gold := eval.Tokens(c.Content)
			left := map[string]int{}
			total := 0
			for t, k := range gold {
				left[t] = k
				total += k
			}
			pg := &page{set: set, gold: gold, first: map[string]int{}, weight: 1 / float64(len(cases))}
			paras := segmenter.Paragraphs(c.HTML, segmenter.Tuning{})
			pageTokens := 0
			for _, p := range paras {
				bag := eval.Tokens(p.Text)
				n, in := 0, 0
				for t, k := range bag {
					n += k
					m := min(k, left[t])
					in += m
					left[t] -= m
				}
				pageTokens += n
				pg.x = append(pg.x, p.Features)
				pg.y = append(pg.y, n > 0 && in*2 >= n)
				pg.bags = append(pg.bags, bag)
				pg.w = append(pg.w, float64(n))
				if p.Features[1] == 1 { // kept by the rules
					for t, k := range bag {
						pg.first[t] += k
					}
				}
			}
			// A paragraph weighs its share of the page's tokens (the
			// larger of the gold and the page's text), capped at one.
			den := float64(max(total, 1))
			for i := range pg.w {
				pg.w[i] = min(pg.w[i]/den, 1)
			}
			pages = append(pages, pg)
		}
	}
	return pages, nil
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func dot(w, x []float64) float64 {
	s := 0.0
	for i := range w {
		s += w[i] * x[i]
	}
	return s
}

// fit is a weighted L2 logistic regression by Newton's method.
func fit(pages []*page, d int, lambda float64) []float64 {
	sets := map[string]bool{}
	for _, p := range pages {
		sets[p.set] = true
	}
	setWeight := 1 / float64(len(sets))
	w := make([]float64, d)
	for it := 0; it < 25; it++ {
		g := make([]float64, d)
		h := make([][]float64, d)
		for i := range h {
			h[i] = make([]float64, d)
		}
		for i := range w {
			g[i] = lambda * w[i]
			h[i][i] = lambda
		}
		for _, p := range pages {
			for j, x := range p.x {
				c := p.w[j] * p.weight * setWeight
				if c == 0 {
					continue
				}
				q := sigmoid(dot(w, x))
				y := 0.0
				if p.y[j] {
					y = 1
				}
				for a := 0; a < d; a++ {
					if x[a] == 0 {
						continue
					}
					g[a] += c * (q - y) * x[a]
					for b := a; b < d; b++ {
						h[a][b] += c * q * (1 - q) * x[a] * x[b]
					}
				}
			}
		}
		for a := 0; a < d; a++ {
			for b := 0; b < a; b++ {
				h[a][b] = h[b][a]
			}
		}
		step := solve(h, g)
		change := 0.0
		for i := range w {
			w[i] -= step[i]
			change = max(change, math.Abs(step[i]))
		}
		if change < 1e-6 {
			break
		}
	}
	return w
}

// solve is Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		if math.Abs(m[c][c]) < 1e-12 {
			continue
		}
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		if math.Abs(m[i][i]) > 1e-12 {
			x[i] = m[i][n] / m[i][i]
		}
	}
	return x
}

// score is the mean over sets of the mean page P, R and F1 when the
// paragraphs the model gives at least th are kept (w nil: the rules'
// answer).
func score(pages []*page, w []float64, th thresholds) (p, r, f float64) {
	type acc struct{ p, r, f, n float64 }
	sets := map[string]*acc{}
	for _, pg := range pages {
		got := pg.first
		if w != nil {
			got = map[string]int{}
			for j, x := range pg.x {
				q := sigmoid(dot(w, x))
				if (x[1] == 1 && q >= th.drop) || (x[1] == 0 && q >= th.add) {
					for t, k := range pg.bags[j] {
						got[t] += k
					}
				}
			}
		}
		a := sets[pg.set]
		if a == nil {
			a = &acc{}
			sets[pg.set] = a
		}
		pp, rr, ff := eval.PRF(got, pg.gold)
		a.p, a.r, a.f, a.n = a.p+pp, a.r+rr, a.f+ff, a.n+1
	}
	for _, set := range eval.Sets {
		if a := sets[set]; a != nil {
			p += a.p / a.n
			r += a.r / a.n
			f += a.f / a.n
		}
	}
	k := float64(len(sets))
	return p / k, r / k, f / k
}

// thresholds: a paragraph the rules keep stays unless the model gives it
// under drop; one they leave out comes in when the model gives it add or
// more.
type thresholds struct{ add, drop float64 }

// nestedThreshold chooses the thresholds on out-of-set predictions: each
// set of pages is scored by the model fitted on the others, so the
// thresholds are those that work on a set the model has not seen.
func nestedThreshold(pages []*page, d int, lambda float64) thresholds {
	sets := map[string]bool{}
	for _, p := range pages {
		sets[p.set] = true
	}
	var scored []*page
	for _, s := range eval.Sets { // in a fixed order: the output is the same every run
		if !sets[s] {
			continue
		}
		var train, test []*page
		for _, p := range pages {
			if p.set == s {
				test = append(test, p)
			} else {
				train = append(train, p)
			}
		}
		w := fit(train, d, lambda)
		for _, p := range test {
			q := *p
			q.x = make([][]float64, len(p.x))
			for j, x := range p.x {
				// The out-of-set probability, carried as a one-feature
				// vector through score's bias-free model below.
				q.x[j] = []float64{dot(w, x), x[1]}
			}
			scored = append(scored, &q)
		}
	}
	return bestThreshold(scored, []float64{1, 0})
}

// bestThreshold is the pair of thresholds of the best mean F1 on pages.
func bestThreshold(pages []*page, w []float64) thresholds {
	best, bestF := thresholds{1.01, 0}, -1.0
	for _, add := range []float64{0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1.01} {
		for _, drop := range []float64{0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5} {
			th := thresholds{add, drop}
			if _, _, f := score(pages, w, th); f > bestF {
				best, bestF = th, f
			}
		}
	}
	return best
}
