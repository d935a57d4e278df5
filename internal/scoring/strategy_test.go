package scoring

import (
	"context"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// TestRegistry: every registered strategy parses, has options whose
// parameters read back what they show, builds into a scorer that scores,
// and is of the kind NeedsGraph says; the per-doc ones combine with
// +learned and the graph ones refuse to.
func TestRegistry(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree",
		Examples: topic.Examples{Items: []topic.Example{{Positive: true, Text: "forest tree"}}}})
	doc := sharkDoc()
	for _, info := range Strategies() {
		t.Run(info.Name, func(t *testing.T) {
			base, learn, err := ParseStrategy(info.Name)
			if err != nil || base != info.Name || learn != (info.Name == LinksLearned) {
				t.Fatalf("ParseStrategy(%q) = %q, %v, %v", info.Name, base, learn, err)
			}
			if NeedsGraph(info.Name) != info.Graph {
				t.Errorf("NeedsGraph %v, Graph %v", NeedsGraph(info.Name), info.Graph)
			}
			if info.About == "" {
				t.Error("no About")
			}
			l := LinkOptions{Strategy: info.Name}
			params, err := l.Params()
			if err != nil || l.Options == nil {
				t.Fatalf("Params: %v, options %v", err, l.Options)
			}
			names := map[string]bool{}
			for _, p := range params {
				if names[p.Name] {
					t.Errorf("parameter %s listed twice", p.Name)
				}
				names[p.Name] = true
				if p.Usage == "" {
					t.Errorf("%s: no usage", p.Name)
				}
				if shown := p.Value.String(); p.Value.Set(shown) != nil || p.Value.String() != shown {
					t.Errorf("%s: shows %q and does not read it back (%q)", p.Name, shown, p.Value.String())
				}
				if p.Value.Set("not a value") == nil {
					t.Errorf("%s: reads %q", p.Name, "not a value")
				}
			}
			if len(names) != len(info.Params) {
				t.Errorf("Params %v, Strategies lists %v", names, info.Params)
			}
			sc, err := NewScorer(m, Config{Page: DefaultPageOptions(), Links: l}, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := sc.ScoreBatch(context.Background(), []record.Doc{doc})
			if err != nil || len(out) != 1 || len(out[0].Links) != len(doc.Links) {
				t.Fatalf("ScoreBatch: %v, %+v", err, out)
			}
			if _, err := sc.Score(context.Background(), &doc); (err != nil) != info.Graph {
				t.Errorf("Score of a graph strategy: %v", err)
			}
			combo := info.Name + "+learned"
			base, learn, err = ParseStrategy(combo)
			switch {
			case info.Graph || info.Name == LinksLearned:
				if err == nil {
					t.Errorf("%s parses", combo)
				}
			case err != nil || base != info.Name || !learn || !(LinkOptions{Strategy: combo}).Learns():
				t.Errorf("ParseStrategy(%q) = %q, %v, %v", combo, base, learn, err)
			}
		})
	}
}

// TestUnknownStrategy: an unknown name is refused, naming every
// registered strategy.
func TestUnknownStrategy(t *testing.T) {
	for _, name := range []string{"nope", "shark+nope", "learned+learned", "Shark"} {
		_, _, err := ParseStrategy(name)
		if err == nil {
			t.Errorf("%q parses", name)
			continue
		}
		for _, known := range StrategyNames() {
			if !strings.Contains(err.Error(), known) {
				t.Errorf("%q: %v does not name %s", name, err, known)
			}
		}
		if _, err := NewScorer(nil, Config{Links: LinkOptions{Strategy: name}}, nil); err == nil {
			t.Errorf("NewScorer with %q: no error", name)
		}
	}
}

// TestStrategyOptionsType: options of another strategy's type are an
// error, not a panic.
func TestStrategyOptionsType(t *testing.T) {
	m := newTestModel(t, &topic.Profile{Description: "forest tree"})
	_, err := NewScorer(m, Config{Links: LinkOptions{Strategy: LinksBlockShark, Options: &SharkOptions{}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "*scoring.BlockSharkOptions") {
		t.Errorf("err %v", err)
	}
}

// TestSharedParamsAgree: a parameter several strategies use (δ of shark
// and block-shark, c of heuristic, ipagerank and skyreach) has one
// default, the one its flag shows.
func TestSharedParamsAgree(t *testing.T) {
	defaults := map[string]string{}
	for _, p := range AllParams() {
		defaults[p.Name] = p.Value.String()
	}
	for _, info := range Strategies() {
		l := LinkOptions{Strategy: info.Name}
		params, _ := l.Params()
		for _, p := range params {
			if got := p.Value.String(); got != defaults[p.Name] {
				t.Errorf("%s: --%s defaults to %s, the flag to %s", info.Name, p.Name, got, defaults[p.Name])
			}
		}
	}
}

// TestDefaultStrategy: the default is stated once, and a LinkOptions
// without a strategy is that one.
func TestDefaultStrategy(t *testing.T) {
	if DefaultLinkOptions().Strategy != DefaultStrategy || DefaultStrategy != LinksShark {
		t.Errorf("DefaultLinkOptions %q, DefaultStrategy %q", DefaultLinkOptions().Strategy, DefaultStrategy)
	}
	var l LinkOptions
	if _, err := l.Params(); err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Options.(*SharkOptions); !ok || l.Base() != DefaultStrategy {
		t.Errorf("options %T, base %q", l.Options, l.Base())
	}
}

// TestBlockSharkFormPseudo: --share-pseudo follows --block-shark-form
// unless given, in either order.
func TestBlockSharkFormPseudo(t *testing.T) {
	set := func(kv ...string) BlockSharkOptions {
		o := DefaultBlockSharkOptions()
		for i := 0; i < len(kv); i += 2 {
			for _, p := range o.Params() {
				if p.Name == kv[i] {
					if err := p.Value.Set(kv[i+1]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		return o
	}
	for _, tc := range []struct {
		kv   []string
		want float64
	}{
		{nil, 4},
		{[]string{"block-shark-form", "additive"}, 0},
		{[]string{"block-shark-form", "additive", "share-pseudo", "2"}, 2},
		{[]string{"share-pseudo", "2", "block-shark-form", "additive"}, 2},
		{[]string{"block-shark-form", "additive", "block-shark-form", "modulated"}, 4},
	} {
		if got := set(tc.kv...).SharePseudo; got != tc.want {
			t.Errorf("%v: SharePseudo %v, want %v", tc.kv, got, tc.want)
		}
	}
}
