package scoring

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/pagemodel"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// PageMethodModel names a page model's probability in a scored doc's
// scores.
const PageMethodModel = "model"

// navMaxRunes bounds the navigation text a page model reads of a page.
const navMaxRunes = 400

// IsNavBlock reports whether block i of a page is navigation for the page
// model: a block segment called nav, or a links or other block above the
// page's first main block (breadcrumbs, a DocBook navigation header, a
// chapter's name over its section), where a page says where it sits.
func IsNavBlock(blocks []record.Block, i int) bool {
	switch blocks[i].Kind {
	case record.BlockNav:
		return true
	case record.BlockLinks, record.BlockOther:
		for _, b := range blocks[:i] {
			if b.Kind == record.BlockMain {
				return false
			}
		}
		return true
	}
	return false
}

// navTokens are the tokens of a doc's navigation blocks, of their first
// navMaxRunes characters. Each block is cut on its own, so a site's menu,
// the same on every page, is cut once (repeatedTokens) while the
// breadcrumb beside it changes.
func (m *Model) navTokens(d *record.Doc) []string {
	var out []string
	left := navMaxRunes
	for i := range d.Blocks {
		t := d.Blocks[i].Text
		if t == "" || left == 0 || !IsNavBlock(d.Blocks, i) {
			continue
		}
		if n := utf8.RuneCountInString(t); n > left {
			k, cut := 0, 0
			for cut = range t {
				if k == left {
					break
				}
				k++
			}
			t = t[:cut]
			left = 0
		} else {
			left -= n
		}
		out = append(out, m.repeatedTokens(t)...)
	}
	return out
}

// ModelPage is what a page model sees of d: its URL (the final one after
// redirects), body vector vec, the tokens of its title, navigation and of
// the anchor that led to it, and the profile's score prior.
func (m *Model) ModelPage(d *record.Doc, vec vsm.Vector, prior float64) pagemodel.Page {
	u := d.URL
	if d.FinalURL != "" {
		u = d.FinalURL
	}
	p := pagemodel.Page{URL: u, Body: vec, Prior: prior}
	if d.Title != "" {
		p.Title = m.repeatedTokens(d.Title)
	}
	p.Nav = m.navTokens(d)
	if d.Anchor != "" {
		p.Anchor = m.repeatedTokens(d.Anchor)
	}
	return p
}

// repeatedTokens is Tok.Tokens of a text that repeats from page to page
// (a site's menus and breadcrumbs, "next page" anchors, the titles of a
// site's list pages), remembered for
// the last texts seen as TextSim remembers similarities. The slice is
// shared: callers must not change it.
func (m *Model) repeatedTokens(s string) []string {
	c := &m.tokenMemo
	c.mu.Lock()
	v, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = m.Tok.Tokens(s)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= textSimCacheSize {
		c.m = make(map[string][]string, 1024)
	}
	c.m[strings.Clone(s)] = v
	c.mu.Unlock()
	return v
}

// tokenCache is repeatedTokens' memory.
type tokenCache struct {
	mu sync.Mutex
	m  map[string][]string
}

// PriorOptions are the page options the profile's score is computed
// with as a page model's prior.
func PriorOptions(pr pagemodel.Prior) PageOptions {
	o := DefaultPageOptions()
	o.Method, o.KeywordShare, o.KeywordCover, o.SimScale = pr.Method, pr.KeywordShare, pr.KeywordCover, pr.SimScale
	return o
}

// Tokenization identifies how this model's profile cuts words, with the
// IDF table's name, as a page model records it.
func (m *Model) Tokenization(idf string) pagemodel.Tokenization {
	return pagemodel.Tokenization{Tokenizer: text.TokenizerVersion,
		Dictionary: digest(m.Profile.Dictionary), Stopwords: digest(m.Profile.Stopwords), IDF: idf}
}

// digest is a short digest of a word list, in any order ("" for none).
func digest(words []string) string {
	if len(words) == 0 {
		return ""
	}
	w := make([]string, 0, len(words))
	for _, s := range words {
		if s = text.Normalize(strings.TrimSpace(s)); s != "" {
			w = append(w, s)
		}
	}
	slices.Sort(w)
	w = slices.Compact(w)
	h := sha256.Sum256([]byte(strings.Join(w, "\n")))
	return "sha256:" + hex.EncodeToString(h[:8])
}

// UsePageModel makes pm judge the pages: a page's score is then pm's
// probability, relevant at pm's threshold. pm must have been trained for
// this profile's topic with the same tokenization (idf names the IDF
// table in use).
func (m *Model) UsePageModel(pm *pagemodel.Model, idf string) error {
	if pm.Topic != m.Profile.Name {
		return fmt.Errorf("the page model was trained for topic %q, not %q (%s): train one for this topic with score train", pm.Topic, m.Profile.Name, m.Profile.Path)
	}
	want := m.Tokenization(idf)
	got := pm.Tokenization
	switch {
	case got.Tokenizer != want.Tokenizer:
		return fmt.Errorf("the page model's words were cut by %q, this focuscrawl cuts them by %q: train it again with score train", got.Tokenizer, want.Tokenizer)
	case got.Dictionary != want.Dictionary || got.Stopwords != want.Stopwords:
		return fmt.Errorf("the page model was trained with another dictionary or other stop words than %s has now: train it again with score train", m.Profile.Path)
	case got.IDF != want.IDF:
		return fmt.Errorf("the page model was trained with the IDF table %q, not %q: give the same --idf, or train it again", got.IDF, want.IDF)
	}
	if pm.Prior.Method == PageRules || pm.Prior.Method == PageCombo {
		if len(m.Profile.Rules) == 0 {
			return fmt.Errorf("the page model's prior is the %s score, but %s has no rules", pm.Prior.Method, m.Profile.Path)
		}
	}
	m.page = pm
	return nil
}

// PageModel is the page model in use, nil for none.
func (m *Model) PageModel() *pagemodel.Model { return m.page }

// PageThreshold is the score at or above which a page is relevant: the
// page model's threshold, or the profile's thresholds.page.
func (m *Model) PageThreshold() float64 {
	if m.page != nil {
		return m.page.Threshold
	}
	return m.Profile.Thresholds.Page
}
