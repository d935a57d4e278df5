package scoring

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// BlockSharkOptions are block-shark's parameters: Shark-Search's, for the
// potential it scales, and those of the block and of the parent's
// relevant share (docs/score.md derives the modulated form).
type BlockSharkOptions struct {
	Shark SharkOptions
	// BlockGamma is γ_b, the block's relevance LB against its crawled
	// links' scores; Theta is θ, how far the evidence may move a link.
	BlockGamma, Theta float64
	// NoiseWeight scales λ for links in nav, ad and footer blocks, links
	// whose anchor holds a link stop word and links to ad hosts: the
	// noise links that paper 1 (docs/algorithms.md §2) separates from relevant link blocks.
	NoiseWeight float64
	// BlockNorm (the additive form) divides λ by the largest λ of the
	// page's blocks, so the best block of a page has λ = 1. LB(B) is a
	// mean of anchor similarities and stays small (a related-links block
	// with a few on-topic anchors among twenty has LB ≈ 0.1), and
	// λ·potential, a product of two small numbers, would put every link of
	// every page under thresholds.link: relative to the page, λ keeps its
	// meaning (which block of this page to follow) at a usable scale.
	BlockNorm bool
	// SharePrior is n′/n before any child is crawled; < 0 means the
	// page's own score. SharePseudo is the weight of the prior in
	// pseudo-children once some are crawled.
	SharePrior, SharePseudo float64
	// Form picks the combination of the terms: BlockSharkModulated (the
	// default, docs/score.md) or BlockSharkAdditive (docs/algorithms.md
	// §2's θ·λ·potential + (1−θ)·n′/n).
	Form string
	// pseudoSet: SharePseudo was given, so a change of Form keeps it.
	pseudoSet bool
}

// DefaultBlockSharkOptions are the modulated form's defaults.
func DefaultBlockSharkOptions() BlockSharkOptions {
	return BlockSharkOptions{Shark: DefaultSharkOptions(), BlockGamma: 0.5, Theta: 0.5, NoiseWeight: 0.3,
		SharePrior: 0.5, SharePseudo: DefaultSharePseudo(BlockSharkModulated), Form: BlockSharkModulated}
}

// Params lists Shark-Search's parameters and block-shark's own.
func (o *BlockSharkOptions) Params() []Param {
	return append(o.Shark.Params(),
		Param{Name: "block-gamma", Usage: "γ_b, block relevance vs sibling scores", Value: unitParam(&o.BlockGamma)},
		Param{Name: "theta", Usage: "θ, λ·potential vs the relevant share n′/n", Value: unitParam(&o.Theta)},
		Param{Name: "noise-weight", Usage: "factor of λ for nav/ad/footer blocks, link stop words, ad hosts", Value: unitParam(&o.NoiseWeight)},
		Param{Name: "block-norm", Usage: "λ relative to the page's best block (the additive form; an addition to the reconstruction)", Value: boolValue{&o.BlockNorm}},
		Param{Name: "share-prior", Usage: "n′/n while no child is crawled: a number, or \"page\" for the page's own score", Value: sharePriorValue{&o.SharePrior}},
		Param{Name: "share-pseudo", Usage: "weight of the prior in n′/n, in pseudo-children, once children are crawled",
			Value: sharePseudoValue{o}, DefaultText: "4 modulated, 0 additive"},
		Param{Name: "block-shark-form", Usage: "how its terms combine: " + strings.Join(BlockSharkForms, ", ") + "; additive is the earlier reconstruction θ·λ·potential + (1−θ)·n′/n",
			Value: formValue{o}},
	)
}

// sharePriorValue is a number in [0,1], or "page" (−1): the page's score.
type sharePriorValue struct{ p *float64 }

func (v sharePriorValue) String() string {
	if *v.p < 0 {
		return "page"
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v sharePriorValue) Set(s string) error {
	if s == "page" {
		*v.p = -1
		return nil
	}
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil || f < 0 || f > 1 {
		return fmt.Errorf("want a number in [0,1] or \"page\"")
	}
	*v.p = f
	return nil
}

// sharePseudoValue is SharePseudo, once given kept whatever the form.
type sharePseudoValue struct{ o *BlockSharkOptions }

func (v sharePseudoValue) String() string { return strconv.FormatFloat(v.o.SharePseudo, 'g', -1, 64) }

func (v sharePseudoValue) Set(s string) error {
	if err := nonNegativeParam(&v.o.SharePseudo).Set(s); err != nil {
		return err
	}
	v.o.pseudoSet = true
	return nil
}

// formValue is the form; SharePseudo follows it unless given.
type formValue struct{ o *BlockSharkOptions }

func (v formValue) String() string { return v.o.Form }

func (v formValue) Set(s string) error {
	if !slices.Contains(BlockSharkForms, s) {
		return fmt.Errorf("want one of %s", strings.Join(BlockSharkForms, ", "))
	}
	v.o.Form = s
	if !v.o.pseudoSet {
		v.o.SharePseudo = DefaultSharePseudo(s)
	}
	return nil
}

// blockShark is paper 1's block-based Shark-Search, in the form its
// options choose.
type blockShark struct{ o BlockSharkOptions }

func (b blockShark) rank(pv *pageView, links []record.ScoredLink) {
	if b.o.Form == BlockSharkAdditive {
		rankBlockShark(pv, links, &b.o)
	} else {
		rankBlockSharkModulated(pv, links, &b.o)
	}
}

// Block-shark's forms (BlockSharkOptions.Form).
const (
	// BlockSharkModulated keeps every term on the Shark potential's scale:
	// the block's influence and the parent's relevant share each scale the
	// potential by a factor around 1 (rankBlockSharkModulated).
	BlockSharkModulated = "modulated"
	// BlockSharkAdditive is docs/algorithms.md §2's reconstruction,
	// θ·λ·potential + (1−θ)·n′/n (rankBlockShark).
	BlockSharkAdditive = "additive"
)

// BlockSharkForms lists the forms.
var BlockSharkForms = []string{BlockSharkModulated, BlockSharkAdditive}

// DefaultSharePseudo is the default weight of the n′/n prior, in
// pseudo-children, of a form: 4 for the modulated form (a page's share
// moves its links by half of θ's range once 4 children are crawled), 0
// for the additive one (the reconstruction's raw n′/n).
func DefaultSharePseudo(form string) float64 {
	if form == BlockSharkAdditive {
		return 0
	}
	return 4
}

// blockStat is one block of a page: the sum of its anchors' similarities
// and the page scores of its crawled links.
type blockStat struct {
	anchorSum    float64
	links        int
	siblingSum   float64
	siblingCount int
}

// blockStats gathers the page's blocks, and n and n′: its crawled
// children and those that were relevant.
func blockStats(pv *pageView) (blocks map[int]*blockStat, n, nRel int) {
	blocks = map[int]*blockStat{}
	for i := range pv.doc.Links {
		l := &pv.doc.Links[i]
		b := blocks[l.Block]
		if b == nil {
			b = &blockStat{}
			blocks[l.Block] = b
		}
		b.anchorSum += pv.anchor(i)
		b.links++
		if s, ok := pv.known[l.URL]; ok {
			b.siblingSum += s
			b.siblingCount++
			n++
			if s >= pv.m.PageThreshold() {
				nRel++
			}
		}
	}
	return blocks, n, nRel
}

// lambda is λ(B) = γ_b·LB(B) + (1−γ_b)·mean score of B's crawled links,
// LB(B) alone when none is crawled.
func (b *blockStat) lambda(gamma float64) float64 {
	lb := b.anchorSum / float64(b.links)
	if b.siblingCount == 0 {
		return lb
	}
	return gamma*lb + (1-gamma)*b.siblingSum/float64(b.siblingCount)
}

// rankBlockSharkModulated is paper 1's (docs/algorithms.md §2) block-based Shark-Search with its
// terms on one scale (docs/score.md has the derivation). For link i in
// block B of page p:
//
//	λ(i)        = λ(B), × NoiseWeight for noise links;  λ̄ = mean λ(i) over p's links
//	b(i)        = 1 − θ + θ·λ(i)/λ̄, kept within [1−θ, 1+θ]   (1 when λ̄ = 0)
//	s̃          = (n′ + m·π) / (n + m)      (π = SharePrior, or p's score; m = SharePseudo)
//	f(i)        = b(i) · (1 − θ + θ·s̃/π)
//	priority(i) = potential·f / (potential·f + 1 − potential)
//
// The factors multiply the potential's odds, as likelihood ratios do in
// Bayes' rule: for small potentials the priority is ≈ potential·f, and
// it never passes 1, so strong evidence does not clamp links to a tie.
//
// The Shark potential is the scale; the block's influence and the parent's
// relevant share are evidence that scale it by factors around 1, and θ
// normalises how far evidence may move a link. b averages 1 over a page's
// links, so block-shark's priorities stay on shark's scale (what
// thresholds.link compares against); a block better than the page's
// average lifts its links, a worse one (navigation, a footer) lowers them.
// Before any child of p is crawled s̃ = π and its factor is exactly 1:
// the page-level term cannot decide while it knows nothing.
func rankBlockSharkModulated(pv *pageView, links []record.ScoredLink, o *BlockSharkOptions) {
	blocks, n, nRel := blockStats(pv)
	prior := o.SharePrior
	if prior < 0 {
		prior = pv.score
	}
	prior = math.Max(prior, 0.05) // the factor divides by it
	share := (float64(nRel) + o.SharePseudo*prior) / (float64(n) + o.SharePseudo)
	if n == 0 {
		share = prior
	}
	shareFactor := 1 - o.Theta + o.Theta*share/prior
	// λ of each link, noise weighted, and their mean over the page's links.
	lambdas := make([]float64, len(links))
	sum := 0.0
	for i := range links {
		lambdas[i] = blocks[pv.doc.Links[i].Block].lambda(o.BlockGamma)
		if pv.isNoise(i) {
			lambdas[i] *= o.NoiseWeight
		}
		sum += lambdas[i]
	}
	mean := sum / float64(max(len(links), 1))
	inh := pv.inherited(o.Shark.Delta)
	for i := range links {
		blockFactor := 1.0
		if mean > 0 {
			blockFactor = min(max(1-o.Theta+o.Theta*lambdas[i]/mean, 1-o.Theta), 1+o.Theta)
		}
		links[i].Priority = oddsScale(pv.potential(i, &o.Shark), blockFactor*shareFactor)
		links[i].Inherited = inh
	}
}

// rankBlockShark is paper 1's block-based Shark-Search, as reconstructed
// in docs/algorithms.md §2 (the paper lost its formulas in print; the
// parameters are flags with the reconstruction's defaults), the additive
// form (--block-shark-form additive). For link i in block B:
//
//	LB(B)       = Σ_{l in B} anchor(l) / |B|
//	λ(i)        = γ_b·LB(B) + (1−γ_b)·mean score of B's crawled links  (λ = LB(B) when none is crawled)
//	priority(i) = θ·λ(i)·potential(i) + (1−θ)·n′/n
//
// where n′/n is the share of the doc's crawled children that were relevant.
// Noise links (nav, ad and footer blocks, link stop words, ad hosts) have
// λ scaled by NoiseWeight; with BlockNorm λ is relative to the page's best
// block.
//
// The share may be smoothed towards a prior with SharePseudo
// pseudo-children: (n′ + m·prior)/(n + m), the prior alone while n = 0.
// The defaults are the reconstruction's: prior 0.5, m = 0. SharePrior < 0
// takes the page's own score as the prior: in a live crawl the children
// crawled before their parent is scored are mostly its navigation
// targets, and a flat 0.5 for every page without crawled children favours
// fresh, off-topic regions (docs/score.md has the measured harvests).
func rankBlockShark(pv *pageView, links []record.ScoredLink, o *BlockSharkOptions) {
	blocks, n, nRel := blockStats(pv)
	prior := o.SharePrior
	if prior < 0 {
		prior = pv.score
	}
	share := (float64(nRel) + o.SharePseudo*prior) / (float64(n) + o.SharePseudo)
	if n == 0 {
		share = prior
	}
	inh := pv.inherited(o.Shark.Delta)
	lambdas := make([]float64, len(links))
	top := 0.0
	for i := range links {
		lambda := blocks[pv.doc.Links[i].Block].lambda(o.BlockGamma)
		if pv.isNoise(i) {
			lambda *= o.NoiseWeight
		}
		lambdas[i] = lambda
		top = max(top, lambda)
	}
	for i := range links {
		lambda := lambdas[i]
		if o.BlockNorm && top > 0 {
			lambda /= top
		}
		links[i].Priority = record.ClampUnit(o.Theta*lambda*pv.potential(i, &o.Shark) + (1-o.Theta)*share)
		links[i].Inherited = inh
	}
}

// oddsScale multiplies the odds of p by f: p·f / (p·f + 1 − p).
func oddsScale(p, f float64) float64 {
	p = record.ClampUnit(p)
	if p >= 1 {
		return 1
	}
	return p * f / (p*f + 1 - p)
}
