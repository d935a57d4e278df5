package pagemodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
)

// Format and Version name the model file's layout; Load refuses any other.
const (
	Format  = "focuscrawl-page-model"
	Version = 1
)

// ErrFormat says a file is not a page model of this version.
var ErrFormat = errors.New("not a focuscrawl page model of this version")

// Model is a trained page model. It is read-only once built and safe for
// concurrent use.
type Model struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Topic is the name of the profile the model was trained for.
	Topic string `json:"topic"`
	// Tokenization identifies how the pages' words were cut: a model
	// applied to pages cut another way would look up words it never saw.
	Tokenization Tokenization `json:"tokenization"`
	// Threshold is the probability at or above which a page is relevant.
	Threshold float64 `json:"threshold"`
	// Bias is b.
	Bias float64 `json:"bias"`
	// Prior is the profile's score as a feature: a·(s − c).
	Prior Prior `json:"prior"`
	// Weights holds w: group name → term → weight.
	Weights map[string]map[string]float64 `json:"weights"`
	// Training says what the model was trained on and how well it did.
	Training Training `json:"training"`

	// weights is Weights indexed by group (Groups' order).
	weights [5]map[string]float64
}

// Tokenization identifies the cutting of words a model was trained with.
type Tokenization struct {
	// Tokenizer names the tokenizer and its dictionary's version.
	Tokenizer string `json:"tokenizer"`
	// Dictionary and Stopwords are digests of the profile's domain
	// dictionary and stop words ("" for none).
	Dictionary string `json:"dictionary,omitempty"`
	Stopwords  string `json:"stopwords,omitempty"`
	// IDF names the IDF table the body vectors were weighted with.
	IDF string `json:"idf"`
}

// Prior is the profile's page score as a feature of the model.
type Prior struct {
	// Method and its parameters are how the profile's score was computed
	// (score's --page, --keyword-share, --keyword-cover, --sim-scale).
	Method       string  `json:"method"`
	KeywordShare float64 `json:"keyword_share"`
	KeywordCover float64 `json:"keyword_cover"`
	SimScale     float64 `json:"sim_scale"`
	// Center is c, the profile's page threshold.
	Center float64 `json:"center"`
	// Weight is a, as trained; Mean and Sigma are its Gaussian prior.
	Weight float64 `json:"weight"`
	Mean   float64 `json:"mean"`
	Sigma  float64 `json:"sigma"`
}

// Training records how the model was made.
type Training struct {
	Positive int `json:"positive"`
	Negative int `json:"negative"`
	// Unlabelled is the size of the unlabelled pool, Pseudo the
	// pseudo-labels of the last self-training round (positive, negative),
	// Rounds the rounds kept, and Stop why self-training stopped.
	Unlabelled int    `json:"unlabelled"`
	Pseudo     [2]int `json:"pseudo_labels"`
	Rounds     int    `json:"self_training_rounds"`
	Stop       string `json:"self_training_stop,omitempty"`
	// Lambda is λ, PseudoWeight a pseudo-label's weight against a label's.
	Lambda       float64 `json:"lambda"`
	PseudoWeight float64 `json:"pseudo_weight"`
	// CV is the cross-validation of the labelled pages.
	CV CV `json:"cv"`
	// Features is the number of features with a weight.
	Features int `json:"features"`
	// Sources are the files the examples came from.
	Sources []string `json:"sources,omitempty"`
}

// CV is a cross-validation of the labelled pages: each page judged by a
// model trained without it (leave-one-out) or without its fold.
type CV struct {
	Method   string  `json:"method"`
	Folds    int     `json:"folds"`
	AUC      float64 `json:"auc"`
	Accuracy float64 `json:"accuracy"`
	// Precision and Recall are of relevant at Threshold.
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	// PriorAUC is the AUC of the profile's score alone on the same pages.
	PriorAUC float64 `json:"prior_auc"`
}

// Logit is the model's log-odds that p is relevant.
func (m *Model) Logit(p *Page) float64 {
	z := m.Bias + m.Prior.Weight*(p.Prior-m.Prior.Center)
	if n := p.Body.Norm(); n > 0 {
		w := m.weights[0]
		for i, t := range p.Body.Terms {
			z += w[t] * p.Body.Weights[i] / n
		}
	}
	z += groupSum(m.weights[1], p.Title)
	z += groupSum(m.weights[2], URLTerms(p.URL))
	z += groupSum(m.weights[3], p.Nav)
	return z + groupSum(m.weights[4], p.Anchor)
}

// groupSum is Σ w_t/√n over the distinct terms of a short-text group, as
// appendGroup weighs them.
func groupSum(w map[string]float64, terms []string) float64 {
	if len(terms) == 0 {
		return 0
	}
	var buf [maxGroupTerms]feature
	fs := appendGroup(buf[:0], 0, terms)
	s := 0.0
	for _, f := range fs {
		s += w[f.term] * f.value
	}
	return s
}

// Prob is the model's probability that p is relevant.
func (m *Model) Prob(p *Page) float64 { return sigmoid(m.Logit(p)) }

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// index builds the per-group maps from Weights.
func (m *Model) index() error {
	for g, terms := range m.Weights {
		i := groupIndex(g)
		if i < 0 {
			return fmt.Errorf("unknown feature group %q (want one of %v)", g, Groups)
		}
		m.weights[i] = terms
	}
	for i := range m.weights {
		if m.weights[i] == nil {
			m.weights[i] = map[string]float64{}
		}
	}
	return nil
}

// Write writes the model as indented JSON.
func (m *Model) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	return enc.Encode(m)
}

// Save writes the model to path (atomically: a temporary file renamed).
func (m *Model) Save(path string) error {
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Read reads a model; name is for errors.
func Read(r io.Reader, name string) (*Model, error) {
	var m Model
	dec := json.NewDecoder(r)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrFormat, err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("%s: %w: format %q, want %q", name, ErrFormat, m.Format, Format)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("%s: %w: version %d, this focuscrawl reads version %d (train the model again with score train)", name, ErrFormat, m.Version, Version)
	}
	if m.Threshold <= 0 || m.Threshold >= 1 {
		return nil, fmt.Errorf("%s: threshold %v: want a probability in (0,1)", name, m.Threshold)
	}
	if err := m.index(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &m, nil
}

// Load reads the model file at path.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("page model: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Weighted is one feature with its weight, for explaining a model.
type Weighted struct {
	Group  string
	Term   string
	Weight float64
}

// Top returns the n most positive and the n most negative features.
func (m *Model) Top(n int) (pos, neg []Weighted) {
	var all []Weighted
	for g, terms := range m.Weights {
		for t, w := range terms {
			all = append(all, Weighted{g, t, w})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Weight != all[j].Weight {
			return all[i].Weight > all[j].Weight
		}
		if all[i].Group != all[j].Group {
			return all[i].Group < all[j].Group
		}
		return all[i].Term < all[j].Term
	})
	for i := 0; i < len(all) && i < n && all[i].Weight > 0; i++ {
		pos = append(pos, all[i])
	}
	for i := len(all) - 1; i >= 0 && len(neg) < n && all[i].Weight < 0; i-- {
		neg = append(neg, all[i])
	}
	return pos, neg
}
