package siteverify

import (
	"fmt"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/scoring"
	"github.com/focuscrawl/focuscrawl/internal/segmenter"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// What the rules of F(P,R) are applied to.
const (
	// RulesOnPage applies them to the page's whole visible text: title,
	// main content and every other block but ads (a "Buy now" button or
	// an attribute table outside the main text counts). The default.
	RulesOnPage = "page"
	// RulesOnContent applies them to the title and main content only, as
	// the score stage does.
	RulesOnContent = "content"
	// RulesOnHTML applies them to the visible text and the raw HTML.
	RulesOnHTML = "html"
)

// RulesOnChoices lists the RulesOn values.
var RulesOnChoices = []string{RulesOnPage, RulesOnContent, RulesOnHTML}

// JudgeOptions configure a DocJudge.
type JudgeOptions struct {
	Profile *topic.Profile
	// Page is the page method (scoring.PageRules by default) and its
	// settings; RulesOnHTML there is ignored in favour of RulesOn.
	Page scoring.PageOptions
	// RulesOn is RulesOnPage (default), RulesOnContent or RulesOnHTML.
	RulesOn string
	// IDF is the IDF table of vsm and pearson (nil: the built-in one).
	IDF *vsm.IDF
	// Tokenizer cuts text for vsm and pearson (nil: internal/text with
	// the profile's dictionary and stop words).
	Tokenizer scoring.Tokenizer
}

// DocJudge segments a page and scores it against a topic. It is safe for
// concurrent use.
type DocJudge struct {
	seg     *segmenter.Segmenter
	prof    *topic.Profile
	model   *scoring.Model // nil for the rules method
	page    scoring.PageOptions
	rulesOn string
}

// NewJudge builds a DocJudge. It fails, naming the setting, when the
// method needs what the profile lacks (rules, or a description and
// keywords).
func NewJudge(o JudgeOptions) (*DocJudge, error) {
	if o.Profile == nil {
		return nil, fmt.Errorf("no topic profile")
	}
	if o.Page.Method == "" {
		o.Page.Method = scoring.PageRules
	}
	switch o.RulesOn {
	case "":
		o.RulesOn = RulesOnPage
	case RulesOnPage, RulesOnContent, RulesOnHTML:
	default:
		return nil, fmt.Errorf("rules-on %q: want %s", o.RulesOn, strings.Join(RulesOnChoices, ", "))
	}
	known := false
	for _, m := range scoring.PageMethods {
		known = known || m == o.Page.Method
	}
	if !known {
		return nil, fmt.Errorf("page method %q: want %s", o.Page.Method, strings.Join(scoring.PageMethods, ", "))
	}
	usesRules := o.Page.Method == scoring.PageRules || (o.Page.Method == scoring.PageCombo && o.Page.Combo[scoring.PageRules] > 0)
	if usesRules && len(o.Profile.Rules) == 0 {
		return nil, fmt.Errorf("page method %s: the profile %s has no rules (add `rules:`)", o.Page.Method, o.Profile.Path)
	}
	o.Page.RulesOnHTML = false
	j := &DocJudge{prof: o.Profile, page: o.Page, rulesOn: o.RulesOn}
	so := segmenter.Options{NoTokens: true, KeepHTML: o.RulesOn == RulesOnHTML,
		LinkStopwords: o.Profile.LinkStopwords, AdHosts: o.Profile.AdHosts, Rules: o.Profile.Extract}
	if o.Page.Method != scoring.PageRules {
		tok := o.Tokenizer
		if tok == nil {
			tok = text.NewTokenizer(text.Options{Dictionary: o.Profile.Dictionary, Stopwords: o.Profile.Stopwords})
		}
		idf := o.IDF
		if idf == nil {
			idf = vsm.Builtin()
		}
		m, err := scoring.NewModel(o.Profile, tok, idf)
		if err != nil {
			return nil, fmt.Errorf("page method %s: %w", o.Page.Method, err)
		}
		j.model = m
		so.NoTokens, so.Tokenizer = false, tok
	}
	seg, err := segmenter.New(so)
	if err != nil {
		return nil, fmt.Errorf("topic profile %s: %w", o.Profile.Path, err)
	}
	j.seg = seg
	return j, nil
}

// Judge segments p and scores it.
func (j *DocJudge) Judge(p record.Page) Judgement {
	d := j.seg.Segment(p)
	if d.Error != "" {
		return Judgement{Err: "segment: " + d.Error}
	}
	return Judgement{Score: j.Score(&d), Links: d.Links}
}

// Score is F(p) of a segmented page by the configured method.
func (j *DocJudge) Score(d *record.Doc) float64 {
	ruleText := j.RuleText(d)
	if j.model == nil {
		s, _ := j.prof.RuleScore(ruleText)
		return s
	}
	vec := j.model.DocVector(d)
	rd := *d
	rd.Title, rd.Content, rd.HTML = "", ruleText, ""
	s, _ := j.model.PageScore(&rd, vec, j.page)
	return s
}

// RuleText is the text the rules see, by RulesOn.
func (j *DocJudge) RuleText(d *record.Doc) string {
	var b strings.Builder
	b.WriteString(d.Title)
	b.WriteString("\n")
	b.WriteString(d.Content)
	if j.rulesOn == RulesOnContent {
		return b.String()
	}
	for _, bl := range d.Blocks {
		if bl.Kind == record.BlockAd || bl.Text == "" {
			continue
		}
		b.WriteString("\n")
		b.WriteString(bl.Text)
	}
	if j.rulesOn == RulesOnHTML {
		b.WriteString("\n")
		b.WriteString(d.HTML)
	}
	return b.String()
}
