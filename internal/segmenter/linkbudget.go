package segmenter

import "strings"

// Link bounds per page. A link-dense page (a quarter million links in
// 11 MB of HTML) would otherwise become a doc line of 100 MB, over the
// 64 MiB the next stage reads, and hold about a gigabyte while segmented.
const (
	// DefaultMaxLinks is the most links kept per page, in document order.
	DefaultMaxLinks = 10000
	// DefaultMaxContextBytes is the most bytes of link context per page;
	// links past it keep their URL and anchor but no context.
	DefaultMaxContextBytes = 2 << 20
)

// linkBudget counts a page's links against the bounds and what was
// dropped past them.
type linkBudget struct {
	maxLinks    int
	contextLeft int
	kept        int
	// dropped are the links past maxLinks; contextsDropped the contexts
	// left out past the context budget.
	dropped, contextsDropped int
}

func newLinkBudget(maxLinks, maxContextBytes int) *linkBudget {
	if maxLinks <= 0 {
		maxLinks = DefaultMaxLinks
	}
	if maxContextBytes <= 0 {
		maxContextBytes = DefaultMaxContextBytes
	}
	return &linkBudget{maxLinks: maxLinks, contextLeft: maxContextBytes}
}

// full tells whether no more links are kept. A link seen past the bound
// is only counted, not resolved, so the resolver's cache stops growing.
func (lb *linkBudget) full() bool { return lb.kept >= lb.maxLinks }

// drop counts href as dropped when it is a link at all.
func (lb *linkBudget) drop(href string) {
	href = strings.TrimSpace(href)
	if href == "" || href[0] == '#' {
		return
	}
	low := strings.ToLower(href[:min(len(href), 12)])
	for _, s := range skippedSchemes {
		if strings.HasPrefix(low, s) {
			return
		}
	}
	lb.dropped++
}

// context charges a link's context to the budget: it returns "" (and
// counts it) once the budget cannot pay for it.
func (lb *linkBudget) context(c string) string {
	if len(c) > lb.contextLeft {
		if c != "" {
			lb.contextsDropped++
		}
		return ""
	}
	lb.contextLeft -= len(c)
	return c
}
