package siteverify

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The strategies.
const (
	// StrategyHeuristic is paper 0's (docs/algorithms.md §1) best-first search over AbstractURL
	// classes.
	StrategyHeuristic = "heuristic"
	// StrategyBFS fetches the site's pages in the order they were found,
	// with the same thresholds: the baseline.
	StrategyBFS = "bfs"
)

// Strategies lists the strategies.
var Strategies = []string{StrategyHeuristic, StrategyBFS}

// The scopes: what makes two URLs the same site.
const (
	// ScopeSite keys a site by its registrable domain (www.a.com.cn and
	// shop.a.com.cn are one site).
	ScopeSite = "site"
	// ScopeHost keys a site by its exact host.
	ScopeHost = "host"
)

// How pages are put into classes.
const (
	// ClassesTemplate is the AbstractURL with every run of digits in the
	// path replaced by "{n}": /product/78411.html and /product/78190.html
	// are one class, as /item.php?id=1 and /item.php?id=2 are. The
	// default: sites that carry their ids in the path are as common as
	// those that carry them in the query, and with the paper's plain
	// AbstractURL every one of their pages is a class of its own.
	ClassesTemplate = "template"
	// ClassesAbstract is the paper's AbstractURL exactly: path, file and
	// the sorted names of the query parameters.
	ClassesAbstract = "abstract"
)

// ClassChoices lists the class modes.
var ClassChoices = []string{ClassesTemplate, ClassesAbstract}

// Defaults of the paper's parameters (docs/algorithms.md §1), and of patience.
const (
	DefaultPageThreshold = 0.7
	DefaultNumRelPages   = 3
	DefaultNumExpPages   = 30
	DefaultPatience      = 10
)

// PriorKind says how a class with no expanded page is valued.
type PriorKind int

// The priors.
const (
	// PriorParent is the score of the page on which the class's first
	// link was found (the default).
	PriorParent PriorKind = iota
	// PriorBestParent is the best score of the pages linking into the
	// class so far.
	PriorBestParent
	// PriorMeanParent is the mean score of the pages linking into the
	// class so far (each link counted once).
	PriorMeanParent
	// PriorConstant is a fixed value: 1 explores every class once before
	// exploiting any (optimistic), 0 never leaves a class that scored
	// above zero while it has pages (pessimistic).
	PriorConstant
)

// Prior is the H of a class whose E_k is empty.
type Prior struct {
	Kind PriorKind
	// Value is the constant of PriorConstant, in [0,1].
	Value float64
}

// String gives the prior as ParsePrior reads it.
func (p Prior) String() string {
	switch p.Kind {
	case PriorBestParent:
		return "best-parent"
	case PriorMeanParent:
		return "mean-parent"
	case PriorConstant:
		return strconv.FormatFloat(p.Value, 'g', -1, 64)
	}
	return "parent"
}

// ParsePrior reads "parent", "best-parent", "mean-parent" or a number in
// [0,1].
func ParsePrior(s string) (Prior, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "parent", "":
		return Prior{Kind: PriorParent}, nil
	case "best-parent":
		return Prior{Kind: PriorBestParent}, nil
	case "mean-parent":
		return Prior{Kind: PriorMeanParent}, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
		return Prior{}, fmt.Errorf("%q: want parent, best-parent, mean-parent or a number in [0,1]", s)
	}
	return Prior{Kind: PriorConstant, Value: v}, nil
}

// Options configure a Verifier.
type Options struct {
	// Strategy is StrategyHeuristic (default) or StrategyBFS.
	Strategy string
	// Scope is ScopeSite (default) or ScopeHost.
	Scope string
	// PageThreshold is the score from which a page is good.
	PageThreshold float64
	// NumRelPages is the number of good pages that make a site relevant.
	NumRelPages int
	// NumExpPages is the most pages fetched per site.
	NumExpPages int
	// Patience ends a run as not relevant once this many pages in a row
	// were fetched without a good one (0: never; the paper's algorithm
	// stops only at NumExpPages or when nothing is queued).
	Patience int
	// Prior values classes with no expanded page (heuristic only).
	Prior Prior
	// Classes is ClassesTemplate (default) or ClassesAbstract.
	Classes string
	// OnPage, when set, receives every page fetched (for --pages). It may
	// be called from several goroutines at once.
	OnPage func(site string, p PageResult)
}

// DefaultOptions returns the paper's settings.
func DefaultOptions() Options {
	return Options{
		Strategy:      StrategyHeuristic,
		Scope:         ScopeSite,
		PageThreshold: DefaultPageThreshold,
		NumRelPages:   DefaultNumRelPages,
		NumExpPages:   DefaultNumExpPages,
		Patience:      DefaultPatience,
		Classes:       ClassesTemplate,
	}
}

// check fills empty fields with defaults and names the field at fault.
func (o Options) check() (Options, error) {
	d := DefaultOptions()
	if o.Strategy == "" {
		o.Strategy = d.Strategy
	}
	if o.Scope == "" {
		o.Scope = d.Scope
	}
	if o.Classes == "" {
		o.Classes = d.Classes
	}
	var errs []error
	if o.Strategy != StrategyHeuristic && o.Strategy != StrategyBFS {
		errs = append(errs, fmt.Errorf("strategy %q: want %s", o.Strategy, strings.Join(Strategies, " or ")))
	}
	if o.Scope != ScopeSite && o.Scope != ScopeHost {
		errs = append(errs, fmt.Errorf("scope %q: want %s or %s", o.Scope, ScopeSite, ScopeHost))
	}
	if math.IsNaN(o.PageThreshold) || o.PageThreshold < 0 || o.PageThreshold > 1 {
		errs = append(errs, fmt.Errorf("page threshold %v: must be in [0,1]", o.PageThreshold))
	}
	if o.NumRelPages < 1 {
		errs = append(errs, fmt.Errorf("num-rel-pages %d: must be at least 1", o.NumRelPages))
	}
	if o.NumExpPages < 1 {
		errs = append(errs, fmt.Errorf("num-exp-pages %d: must be at least 1", o.NumExpPages))
	}
	if o.Classes != ClassesTemplate && o.Classes != ClassesAbstract {
		errs = append(errs, fmt.Errorf("classes %q: want %s", o.Classes, strings.Join(ClassChoices, " or ")))
	}
	if o.Patience < 0 {
		errs = append(errs, fmt.Errorf("patience %d: must not be negative", o.Patience))
	}
	if o.Prior.Kind == PriorConstant && (math.IsNaN(o.Prior.Value) || o.Prior.Value < 0 || o.Prior.Value > 1) {
		errs = append(errs, fmt.Errorf("prior %v: must be in [0,1]", o.Prior.Value))
	}
	return o, errors.Join(errs...)
}
