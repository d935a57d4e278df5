package segmenter

import (
	"fmt"
	"sort"
	"strings"
)

// Explain describes how the content region of a page was chosen: the
// best-scored candidates, the chosen node's ancestors and the siblings
// considered, with their scores. It is for developers (segment eval
// --explain), not part of any record.
func Explain(htmlText string, t Tuning) string {
	root, _, err := parseHTML(htmlText)
	if err != nil {
		return err.Error()
	}
	body, _ := build(root)
	sc := scoreCandidates(body)
	var sb strings.Builder
	type cand struct {
		n *node
		v float64
	}
	var cs []cand
	for n, v := range sc.scores {
		cs = append(cs, cand{n, v})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].v > cs[j].v })
	desc := func(n *node) string {
		return fmt.Sprintf("%s chars=%d ld=%.2f score=%.1f %q", nodePath(n), n.chars, n.linkDensity(), sc.scores[n], truncRunes(oneLine(plainText(n)), 70))
	}
	fmt.Fprintln(&sb, "top candidates:")
	for i := 0; i < len(cs) && i < 8; i++ {
		fmt.Fprintln(&sb, "  ", desc(cs[i].n))
	}
	best := sc.best(t.NoiseCandidates)
	if best == nil {
		fmt.Fprintln(&sb, "best: none (no run of text long enough)")
		return sb.String()
	}
	top, entry := sc.firstEntry(best)
	if entry == nil {
		top = sc.extend(top, t.withDefaults())
	}
	fmt.Fprintln(&sb, "best:", desc(best))
	if top != nil {
		for a, i := top.parent, 0; a != nil && i < 4; a, i = a.parent, i+1 {
			fmt.Fprintln(&sb, "  ancestor:", desc(a))
		}
	}
	region := sc.contentRegion(top)
	in := map[*node]bool{}
	for _, n := range region {
		in[n] = true
	}
	if top != nil && top.parent != nil {
		fmt.Fprintln(&sb, "siblings (+ = in region):")
		for _, k := range top.parent.kids {
			if k.isText() || k.chars == 0 {
				continue
			}
			mark := " "
			if in[k] {
				mark = "+"
			}
			fmt.Fprintln(&sb, "  ", mark, desc(k))
		}
	}
	for _, n := range region {
		if n.parent != top.parent {
			fmt.Fprintln(&sb, "  + elsewhere:", desc(n))
		}
	}
	return sb.String()
}

func nodePath(n *node) string {
	var parts []string
	for a := n; a != nil && !a.isText(); a = a.parent {
		parts = append(parts, pathStep(a))
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ">")
}
