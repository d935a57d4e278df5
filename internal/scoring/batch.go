package scoring

import (
	"context"
	"errors"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// ScoreBatch scores a group of docs together, in their order. The group's
// page scores serve as block-shark's sibling scores; the graph strategies
// (ipagerank, linkmodel, skyreach) run over the group's links and, with a
// store, the links crawled so far.
func (s *Scorer) ScoreBatch(ctx context.Context, docs []record.Doc) ([]record.ScoredDoc, error) {
	pages := make([]scoredPage, len(docs))
	batch := make(map[string]float64, len(docs))
	for i := range docs {
		pages[i] = s.page(&docs[i])
		if docs[i].Error == "" {
			batch[docs[i].URL] = pages[i].score
			s.seen.put(docs[i].URL, pages[i].score)
		}
	}
	out := make([]record.ScoredDoc, len(docs))
	if s.strategy.graph == nil {
		for i, sp := range pages {
			sd, err := s.rank(ctx, sp, batch)
			if err != nil {
				return nil, err
			}
			out[i] = sd
		}
		return out, nil
	}
	for i, sp := range pages {
		out[i] = newScored(sp)
	}
	if err := s.strategy.graph.rankGroup(ctx, pages, out); err != nil {
		return nil, err
	}
	for i, sp := range pages {
		if sp.doc.Error == "" {
			s.prune(&out[i])
		}
	}
	return out, ctx.Err()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ErrNoExamples says a profile has no example linkmodel can use as a
// seed: with the topic vector its only seed, the model ranks candidates by
// their likeness to the topic's words and the neighbours of that, and on a
// real web whose pages share the profile's words it crawled nearly blind
// (7 relevant pages in 1,000). linkmodel refuses such a profile.
var ErrNoExamples = errors.New("linkmodel learns from labelled examples and the profile has none: " +
	"add examples: {positive: [...], negative: [...]} (URLs, files or texts of relevant and irrelevant pages; docs/topic.md), " +
	"or choose a strategy that needs none (--links shark)")

// checkExamples refuses, for linkmodel, a profile without examples.
func checkExamples(m *Model) error {
	if m.ExampleSeeds() == 0 {
		return ErrNoExamples
	}
	return nil
}

// ExampleSeeds counts the profile's examples that give linkmodel a seed:
// texts with words, and URLs (whose page, or at least the words of the URL,
// stand for them).
func (m *Model) ExampleSeeds() int {
	n := 0
	for _, e := range m.Profile.Examples.Items {
		switch {
		case e.Text != "":
			if m.Text(e.Text).Len() > 0 {
				n++
			}
		case e.URL != "":
			n++
		}
	}
	return n
}

// seeds returns the labelled seeds: each example of the profile (a text,
// or a URL: its page's vector when it is in the batch, else its
// candidate's, else the words of the URL), and the topic vector as a
// positive seed.
func (m *Model) seeds(ids map[string]int, cands []vsm.Vector, docVec map[string]vsm.Vector) ([]vsm.Vector, []float64) {
	seeds := []vsm.Vector{m.Vector}
	labels := []float64{1}
	for _, e := range m.Profile.Examples.Items {
		var v vsm.Vector
		switch {
		case e.Text != "":
			v = m.Text(e.Text)
		case e.URL != "":
			if dv, ok := docVec[e.URL]; ok {
				v = dv
			} else if id, ok := ids[e.URL]; ok {
				v = cands[id]
			} else {
				v = m.Text(strings.Join(strings.FieldsFunc(e.URL, notAlnum), " "))
			}
		}
		if v.Len() == 0 {
			continue
		}
		seeds = append(seeds, v)
		if e.Positive {
			labels = append(labels, 1)
		} else {
			labels = append(labels, -1)
		}
	}
	return seeds, labels
}
