package scoring

import (
	"fmt"
	"reflect"
)

// LinkOptions choose the link strategy and its parameters.
type LinkOptions struct {
	// Strategy is a registered strategy, or a per-doc one followed by
	// "+learned"; "" is DefaultStrategy.
	Strategy string
	// Options are the strategy's parameters, of its own type
	// (*SharkOptions for shark, *NoOptions for bfs, …); nil takes its
	// defaults.
	Options StrategyOptions
	// Learn are the parameters of the learned model that follows a
	// per-doc strategy ("shark+learned"); nil takes DefaultLearnOptions.
	Learn *LearnOptions
}

// DefaultLinkOptions are the default strategy with its defaults.
func DefaultLinkOptions() LinkOptions { return LinkOptions{Strategy: DefaultStrategy} }

// spec reads the strategy ("" is DefaultStrategy).
func (o LinkOptions) spec() (spec, error) {
	if o.Strategy == "" {
		return parseSpec(DefaultStrategy)
	}
	return parseSpec(o.Strategy)
}

// Params fills in the defaults of the options left nil and returns the
// parameters of the strategy, bound to o's options: those of its base and,
// for "+learned", the learned model's.
func (o *LinkOptions) Params() ([]Param, error) {
	sp, err := o.spec()
	if err != nil {
		return nil, err
	}
	if o.Options == nil {
		o.Options = sp.def.options()
	}
	ps := o.Options.Params()
	if sp.learn && !sp.def.learns {
		if o.Learn == nil {
			l := DefaultLearnOptions()
			o.Learn = &l
		}
		ps = append(ps, o.Learn.Params()...)
	}
	return ps, nil
}

// Learns tells whether the strategy learns from the crawl (learned, or
// "+learned"): it then scores in input order, and with a store replays
// the crawl so far and has the frontier rank URL classes.
func (o LinkOptions) Learns() bool {
	sp, err := o.spec()
	return err == nil && sp.learn
}

// Base is the strategy without "+learned": what the frontier records as
// the crawl's link strategy.
func (o LinkOptions) Base() string {
	sp, err := o.spec()
	if err != nil {
		return o.Strategy
	}
	return sp.def.name
}

// Check tells whether the strategy can work with the model: linkmodel
// refuses a profile without examples (ErrNoExamples).
func (o LinkOptions) Check(m *Model) error {
	sp, err := o.spec()
	if err != nil || sp.def.check == nil {
		return err
	}
	return sp.def.check(m)
}

// build makes the strategy the options name, with their parameters.
func (o LinkOptions) build(env strategyEnv) (built, error) {
	sp, err := o.spec()
	if err != nil {
		return built{}, err
	}
	opts := o.Options
	if opts == nil {
		opts = sp.def.options()
	}
	if want := sp.def.options(); reflect.TypeOf(opts) != reflect.TypeOf(want) {
		return built{}, fmt.Errorf("link strategy %s takes %T options, not %T", sp.def.name, want, opts)
	}
	b := built{prunes: !sp.def.unfocused}
	if sp.def.graph != nil {
		b.graph = sp.def.graph(env, opts)
		return b, nil
	}
	b.doc = sp.def.doc(env, opts)
	if sp.learn && !sp.def.learns {
		learn := DefaultLearnOptions()
		if o.Learn != nil {
			learn = *o.Learn
		}
		b.doc = newLearned(env, b.doc, learn)
	}
	return b, nil
}

// built is a strategy made ready: one of doc and graph.
type built struct {
	doc   docStrategy
	graph graphStrategy
	// prunes: links under thresholds.link are marked pruned.
	prunes bool
}
