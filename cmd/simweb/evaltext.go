package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/simweb"
)

// writeEvalText writes an evaluation as a short report for people (eval
// --format text): the same figures as the JSON object.
func writeEvalText(w io.Writer, e simweb.Eval) error {
	var b strings.Builder
	fmt.Fprintf(&b, "topic %s: %d pages fetched, %d relevant by the truth\n", e.Topic, e.Pages, e.Relevant)
	fmt.Fprintf(&b, "  harvest rate      %.3f", e.Harvest)
	if len(e.HarvestAt) > 0 {
		at := make([]int, 0, len(e.HarvestAt))
		for n := range e.HarvestAt {
			at = append(at, n)
		}
		sort.Ints(at)
		b.WriteString("  (")
		for i, n := range at {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%.3f at %d", e.HarvestAt[n], n)
		}
		b.WriteString(")")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  topic drift       %.3f\n", e.Drift)
	fmt.Fprintf(&b, "  discovery rate    %.3f  (%d distinct relevant pages found of %d)\n", e.Discovery, e.Found, e.Exist)
	fmt.Fprintf(&b, "  relevant sites    %d of %d\n", e.Sites, e.SitesExist)
	if e.Unknown > 0 {
		fmt.Fprintf(&b, "  not of this web   %d URLs\n", e.Unknown)
	}
	if len(e.TopSites) > 0 {
		b.WriteString("  top sites (relevant pages found):\n")
		for _, s := range e.TopSites {
			fmt.Fprintf(&b, "    %5d  %-28s %s\n", s.Hits, s.Site, s.Name)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
