package segment

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/segmenter/eval"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

// EvalOptions are the settings of Eval ("segment eval").
type EvalOptions struct {
	// Dir holds extraction/<set> for each set (../shared/data).
	Dir string
	// Sets are the sets to run (eval.Sets).
	Sets []string
	// Dump, when set, is the file of one JSON line per page.
	Dump string
	// Titles are files of gold titles kept apart.
	Titles []string
	// Authors are files of hand-checked authors that replace a set's own
	// author gold (eval.LoadAuthors).
	Authors []string
	// Explain, when set, is the page whose choice of content region is
	// printed instead of the table.
	Explain string
	// Tune overrides content thresholds, NAME=VALUE each (ParseTuning).
	Tune []string
	// Tokens tokenizes title and content too (for timing).
	Tokens bool
	// Diagnose adds the error analysis: the missed gold text and the
	// kept noise of every set, by class of paragraph (Diagnose).
	Diagnose bool
}

// Eval measures extraction against the human gold of o.Dir and writes one
// markdown row per set to w. Errors of the settings are usage errors.
func Eval(w io.Writer, o EvalOptions) error {
	base := filepath.Join(o.Dir, "extraction")
	if _, err := os.Stat(base); err != nil {
		return cli.Usagef("DATA_DIR: %v", err)
	}
	so := segmenter.Options{}
	if o.Tokens {
		so.Tokenizer = text.NewTokenizer(text.Options{})
	}
	for _, kv := range o.Tune {
		if err := ParseTuning(&so.Tuning, kv); err != nil {
			return cli.Usagef("--tune %s: %v", kv, err)
		}
	}
	sg, err := segmenter.New(so)
	if err != nil {
		return err
	}
	var dump *json.Encoder
	if o.Dump != "" {
		f, err := os.Create(o.Dump)
		if err != nil {
			return fmt.Errorf("dump: %w", err)
		}
		defer f.Close()
		dump = json.NewEncoder(f)
		dump.SetEscapeHTML(false)
	}
	var sums []eval.Summary
	miss, noise := map[string]*missTally{}, map[string]*missTally{}
	var fb []segmenter.FallbackStats
	for _, set := range o.Sets {
		cases, err := eval.Load(base, strings.TrimSpace(set), segmenter.HTMLText)
		if err != nil {
			return cli.Usagef("--sets: %v", err)
		}
		for _, tf := range o.Titles {
			if err := eval.LoadTitles(tf, cases); err != nil {
				return cli.Usagef("--titles: %v", err)
			}
		}
		for _, af := range o.Authors {
			if err := eval.LoadAuthors(af, cases); err != nil {
				return cli.Usagef("--authors: %v", err)
			}
		}
		if o.Explain != "" {
			for _, cs := range cases {
				if cs.ID == o.Explain {
					fmt.Fprint(w, segmenter.Explain(cs.HTML, so.Tuning))
					return nil
				}
			}
			continue
		}
		sg.FallbackStats(true)
		results, sum := eval.Score(cases, func(p record.Page) record.Doc { return sg.Segment(p) })
		sums = append(sums, sum)
		fb = append(fb, sg.FallbackStats(true))
		if o.Diagnose {
			miss[sum.Set], noise[sum.Set] = newTally(), newTally()
			for _, r := range results {
				diagnosePage(miss[sum.Set], noise[sum.Set], r.HTML, r.Got.Content, r.Content, so.Tuning)
			}
		}
		if dump != nil {
			sort.Slice(results, func(i, j int) bool { return results[i].F < results[j].F })
			for _, r := range results {
				dump.Encode(map[string]any{
					"set": r.Set, "id": r.ID, "f1": r.F, "p": r.P, "r": r.R,
					"title": r.Got.Title, "gold_title": r.Title, "title_ok": r.TitleOK,
					"author": r.Got.Author, "gold_author": r.Case.Author, "author_ok": r.AuthorOK,
					"published": r.Got.Published, "gold_published": r.Case.Published, "date_ok": r.DateOK,
					"content": r.Got.Content, "gold_content": r.Content,
				})
			}
		}
	}
	eval.WriteTable(w, sums)
	fmt.Fprint(w, "\nsecond opinion (pages: thin first answer / second answer kept):")
	for i, s := range sums {
		fmt.Fprintf(w, " %s %d/%d/%d", s.Set, fb[i].Pages, fb[i].Unsure, fb[i].Taken)
	}
	fmt.Fprintln(w)
	if o.Diagnose {
		var names []string
		for _, s := range sums {
			names = append(names, s.Set)
		}
		writeDiagnosis(w, names, miss, noise)
	}
	return nil
}

// ParseTuning sets one content threshold of t from NAME=VALUE:
// extend-prose, extend-link-density, extend-loose, no-extend,
// fallback-thin, fallback-ratio, no-fallback, no-kin or noise-candidates.
func ParseTuning(t *segmenter.Tuning, kv string) error {
	name, val, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("want NAME=VALUE")
	}
	switch name {
	case "no-extend":
		t.NoExtend = val == "true" || val == "1"
		return nil
	case "extend-loose":
		t.ExtendLoose = val == "true" || val == "1"
		return nil
	case "no-fallback":
		t.NoFallback = val == "true" || val == "1"
		return nil
	case "noise-candidates":
		t.NoiseCandidates = val == "true" || val == "1"
		return nil
	case "no-kin":
		t.NoKin = val == "true" || val == "1"
		return nil
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return err
	}
	switch name {
	case "extend-prose":
		t.ExtendProse = v
	case "extend-link-density":
		t.ExtendLinkDensity = v
	case "fallback-thin":
		t.FallbackThin = v
	case "fallback-ratio":
		t.FallbackRatio = v
	default:
		return fmt.Errorf("unknown name %q", name)
	}
	return nil
}
