package mirrorweb

import "slices"

// Judge tells whether the page a URL leads to (after its redirects) is
// relevant to topic; known is false for a URL the truth does not have.
// An unfetchable URL is known and irrelevant.
func (g *Graph) Judge(topic, rawURL string) (relevant, known bool) {
	n := g.Node(rawURL)
	if n == nil {
		return false, false
	}
	f := g.final(n, "")
	return f != nil && slices.Contains(f.Relevant, topic), true
}
