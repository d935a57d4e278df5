package scoring

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// A link strategy is one of two kinds. A docStrategy ranks the links of
// one doc from the doc, its blocks and the page scores of its crawled
// children, as the doc arrives. A graphStrategy ranks the links of a
// group of docs over the link graph the crawl has grown (from the batch,
// and from the frontier store), and keeps that graph from group to group.
// A strategy keeps whatever state it learns itself.
type docStrategy interface {
	rank(pv *pageView, links []record.ScoredLink)
}

type graphStrategy interface {
	// rankGroup sets the priorities of the links of out[i], pages[i]
	// scored, for every page without an error.
	rankGroup(ctx context.Context, pages []scoredPage, out []record.ScoredDoc) error
}

// StrategyOptions are the parameters of one link strategy: each strategy
// has a type of its own (SharkOptions, BlockSharkOptions, …) holding only
// what it uses.
type StrategyOptions interface {
	// Params lists the parameters, each bound to its field.
	Params() []Param
}

// strategyEnv is what a strategy is built with.
type strategyEnv struct {
	m     *Model
	store Store // nil without --db
	// seen are the page scores of the docs scored so far (without a store).
	seen *seenScores
}

// strategyDef is a registered strategy: the registry below is the one
// place that knows which strategies exist, which kind each is, which
// options it takes and what it refuses.
type strategyDef struct {
	name string
	// about says in a line what the strategy ranks by (help, docs/score.md).
	about string
	// unfocused strategies never prune (bfs, the baseline).
	unfocused bool
	// learns: the strategy is the learned model itself, which no
	// "+learned" can follow.
	learns  bool
	options func() StrategyOptions
	// Exactly one of doc and graph builds the strategy from its options
	// (of the type options returns).
	doc   func(env strategyEnv, o StrategyOptions) docStrategy
	graph func(env strategyEnv, o StrategyOptions) graphStrategy
	// check, when set, refuses a model the strategy cannot work with.
	check func(m *Model) error
}

// The link strategies' names.
const (
	LinksBFS        = "bfs"
	LinksBestFirst  = "best-first"
	LinksShark      = "shark"
	LinksBlockShark = "block-shark"
	LinksHeuristic  = "heuristic"
	LinksIPageRank  = "ipagerank"
	LinksLinkModel  = "linkmodel"
	LinksSkyReach   = "skyreach"
	// LinksLearned learns from the crawl: alone, or after a per-doc
	// strategy as "shark+learned".
	LinksLearned = "learned"
)

// DefaultStrategy is the link strategy when none is named (score
// --links, LinkOptions.Strategy ""): shark, the best per-doc strategy of
// docs/benchmarks.md on simweb that needs nothing but the docs.
// scripts/crawl.sh, which gives score its frontier, runs shark+learned.
const DefaultStrategy = LinksShark

// learnSuffix marks a per-doc strategy blended with the learned model.
const learnSuffix = "+" + LinksLearned

// strategies is the registry, in the order help and docs list them.
var strategies = []strategyDef{
	{name: LinksBFS, about: "the unfocused baseline: 1/(depth+1) of the link's target; never prunes", unfocused: true,
		options: func() StrategyOptions { return &NoOptions{} },
		doc:     func(strategyEnv, StrategyOptions) docStrategy { return bfs{} }},
	{name: LinksBestFirst, about: "the page's score, for every link of it",
		options: func() StrategyOptions { return &NoOptions{} },
		doc:     func(strategyEnv, StrategyOptions) docStrategy { return bestFirst{} }},
	{name: LinksShark, about: "Shark-Search: the inherited score and the anchor's and context's likeness to the topic",
		options: func() StrategyOptions { o := DefaultSharkOptions(); return &o },
		doc:     func(_ strategyEnv, o StrategyOptions) docStrategy { return shark{*o.(*SharkOptions)} }},
	{name: LinksBlockShark, about: "block-based Shark-Search: shark scaled by the link's block and the parent's relevant children (paper 1)",
		options: func() StrategyOptions { o := DefaultBlockSharkOptions(); return &o },
		doc:     func(_ strategyEnv, o StrategyOptions) docStrategy { return blockShark{*o.(*BlockSharkOptions)} }},
	{name: LinksHeuristic, about: "paper 2's URL heuristics: topic words in the URL, anchor, page title and the link's metadata",
		options: func() StrategyOptions { o := DefaultHeuristicOptions(); return &o },
		doc:     func(_ strategyEnv, o StrategyOptions) docStrategy { return heuristic{*o.(*HeuristicOptions)} }},
	{name: LinksIPageRank, about: "paper 2's IPageRank of the target over the crawled graph, as a percentile",
		options: func() StrategyOptions { o := DefaultIPageRankOptions(); return &o },
		graph: func(env strategyEnv, o StrategyOptions) graphStrategy {
			return newIPageRank(env, *o.(*IPageRankOptions))
		}},
	{name: LinksLinkModel, about: "paper 3's link model from the profile's examples, calibrated on the crawl's verdicts",
		options: func() StrategyOptions { o := DefaultLinkModelOptions(); return &o },
		graph: func(env strategyEnv, o StrategyOptions) graphStrategy {
			return newLinkModel(env, *o.(*LinkModelOptions))
		},
		check: checkExamples},
	{name: LinksSkyReach, about: "paper 2's system: the URL heuristics combined with the target's IPageRank",
		options: func() StrategyOptions { o := DefaultSkyReachOptions(); return &o },
		graph:   func(env strategyEnv, o StrategyOptions) graphStrategy { return newSkyReach(env, *o.(*SkyReachOptions)) }},
	{name: LinksLearned, about: "an online model of the links that led to good pages, learned from the crawl", learns: true,
		options: func() StrategyOptions { return &LearnedOptions{DefaultLearnOptions()} },
		doc: func(env strategyEnv, o StrategyOptions) docStrategy {
			return newLearned(env, nil, o.(*LearnedOptions).LearnOptions)
		}},
}

// lookup finds a registered strategy by name.
func lookup(name string) (*strategyDef, bool) {
	for i := range strategies {
		if strategies[i].name == name {
			return &strategies[i], true
		}
	}
	return nil, false
}

// StrategyNames lists the registered strategies.
func StrategyNames() []string {
	names := make([]string, len(strategies))
	for i, d := range strategies {
		names[i] = d.name
	}
	return names
}

// spec is a --links value read: a registered strategy, and whether the
// learned model follows it ("shark+learned").
type spec struct {
	def   *strategyDef
	learn bool
}

func parseSpec(s string) (spec, error) {
	base, learn := strings.CutSuffix(s, learnSuffix)
	def, ok := lookup(base)
	switch {
	case !ok || learn && def.learns:
		return spec{}, fmt.Errorf("%q: want one of %s, or a per-doc one followed by %s", s, strings.Join(StrategyNames(), ", "), learnSuffix)
	case learn && def.graph != nil:
		return spec{}, fmt.Errorf("%q: %s scores in batches; %s follows only the per-doc strategies", s, base, learnSuffix)
	}
	return spec{def: def, learn: learn || def.learns}, nil
}

// ParseStrategy reads a --links value: a registered strategy, or a
// per-doc one followed by "+learned". It returns the base strategy and
// whether the learned model is on; "learned" alone has base LinksLearned.
func ParseStrategy(s string) (base string, learn bool, err error) {
	sp, err := parseSpec(s)
	if err != nil {
		return "", false, err
	}
	return sp.def.name, sp.learn, nil
}

// NeedsGraph tells whether a strategy needs the link graph: a whole
// batch or the frontier store. An unknown strategy needs none.
func NeedsGraph(strategy string) bool {
	sp, err := parseSpec(strategy)
	return err == nil && sp.def.graph != nil
}

// StrategyInfo describes a registered strategy, for help and docs.
type StrategyInfo struct {
	Name, About string
	// Graph: the strategy needs the link graph (--batch or --db).
	Graph bool
	// Params are the names of its parameters.
	Params []string
}

// Strategies describes the registered strategies, in the registry's order.
func Strategies() []StrategyInfo {
	out := make([]StrategyInfo, len(strategies))
	for i, d := range strategies {
		out[i] = StrategyInfo{Name: d.name, About: d.about, Graph: d.graph != nil}
		for _, p := range d.options().Params() {
			out[i].Params = append(out[i].Params, p.Name)
		}
	}
	return out
}

// ParamInfo is a parameter of one or more strategies, for the flags.
type ParamInfo struct {
	Param
	// Strategies are the strategies that use it: names, and "+learned"
	// for the learned model that follows a per-doc strategy.
	Strategies []string
}

// AllParams lists every strategy's parameters, each once, with its
// default value and the strategies that use it, in the registry's order.
func AllParams() []ParamInfo {
	var out []ParamInfo
	add := func(strategy string, ps []Param) {
		for _, p := range ps {
			i := slices.IndexFunc(out, func(x ParamInfo) bool { return x.Name == p.Name })
			if i < 0 {
				out = append(out, ParamInfo{Param: p})
				i = len(out) - 1
			}
			out[i].Strategies = append(out[i].Strategies, strategy)
		}
	}
	for _, d := range strategies {
		add(d.name, d.options().Params())
	}
	learn := DefaultLearnOptions()
	add(learnSuffix, learn.Params())
	return out
}

// NoOptions are the options of a strategy without parameters.
type NoOptions struct{}

// Params lists none.
func (*NoOptions) Params() []Param { return nil }
