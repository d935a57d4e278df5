package simweb

import (
	"fmt"
	"sort"
	"strings"
)

// EvalText is an evaluation as a short report for people (eval --format
// text): the same figures as the JSON object.
func EvalText(r EvalResult) string {
	var b strings.Builder
	e := r.Eval
	fmt.Fprintf(&b, "topic %s: %d records judged (every fetch archived, failed and retried ones included), %d relevant by the truth\n", e.Topic, e.Pages, e.Relevant)
	fmt.Fprintf(&b, "  harvest (truth)   %.3f", e.Harvest)
	if len(e.HarvestAt) > 0 {
		fmt.Fprintf(&b, "  (%s)", series(e.HarvestAt))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "  topic drift       %.3f\n", e.Drift)
	fmt.Fprintf(&b, "  discovery rate    %.3f  (%d distinct relevant pages found of %d)\n", e.Discovery, e.Found, e.Exist)
	fmt.Fprintf(&b, "  relevant sites    %d of %d\n", e.Sites, e.SitesExist)
	if e.Unknown > 0 {
		fmt.Fprintf(&b, "  not of this web   %d URLs\n", e.Unknown)
	}
	if e.Failed > 0 {
		fmt.Fprintf(&b, "  failed fetches    %d (records with an error: judged, never relevant)\n", e.Failed)
	}
	if len(e.TopSites) > 0 {
		b.WriteString("  top sites (relevant pages found):\n")
		for _, s := range e.TopSites {
			fmt.Fprintf(&b, "    %5d  %-28s %s\n", s.Hits, s.Site, s.Name)
		}
	}
	if lp := r.LinkPriority; lp != nil {
		fmt.Fprintf(&b, "  link priority AUC %.3f (%d links to relevant pages, mean priority %.3f; %d to others, mean %.3f)\n",
			lp.AUC, lp.Relevant, lp.MeanRelevant, lp.Irrelevant, lp.MeanIrrelevant)
	}
	return b.String()
}

// MirrorEvalText is a mirror's evaluation as a short report for people.
func MirrorEvalText(r MirrorEvalResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "topic %s: %d pages fetched, %d relevant by the truth\n", r.Topic, r.Pages, r.Relevant)
	fmt.Fprintf(&b, "  harvest rate       %.3f  (%s)\n", r.Harvest, series(r.HarvestAt))
	fmt.Fprintf(&b, "  upper bound        %s; every reachable relevant URL by fetch %d\n", series(r.Upper.HarvestAt), r.Upper.AllFoundAt)
	fmt.Fprintf(&b, "  recall             %.3f  (%d distinct relevant pages; %d reachable from the portal, %d in the mirror) (%s)\n",
		r.Recall, r.Found, r.Reachable, r.RelevantExist, series(r.RecallAt))
	if len(r.FetchesFor) > 0 {
		var parts []string
		for _, level := range []string{"0.5", "0.9", "1"} {
			if n, ok := r.FetchesFor[level]; ok {
				parts = append(parts, fmt.Sprintf("%s by fetch %d", level, n))
			}
		}
		fmt.Fprintf(&b, "  recall reached     %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "  unfetchable URLs   %d fetches, %.3f of the budget %v\n", r.Unfetchable, r.UnfetchableShare, r.UnfetchableBy)
	fmt.Fprintf(&b, "  host probes        %d (the first fetch of each unreachable host: no page requested, not a slot)\n", r.HostProbes)
	if r.Unknown > 0 {
		fmt.Fprintf(&b, "  not in the truth   %d URLs\n", r.Unknown)
	}
	if v := r.Verdicts; v != nil {
		fmt.Fprintf(&b, "  verdicts           precision %.3f, recall %.3f  (%d pages judged: %d true positives, %d false positives, %d false negatives, %d true negatives)\n",
			v.Precision, v.Recall, v.Judged, v.TruePos, v.FalsePos, v.FalseNeg, v.TrueNeg)
		fmt.Fprintf(&b, "  believed harvest   %.3f  (the share of slots whose record said relevant; harvest by the truth %.3f)\n", v.BelievedHarvest, r.Harvest)
		if len(v.At) > 0 {
			at := make([]int, 0, len(v.At))
			for n := range v.At {
				at = append(at, n)
			}
			sort.Ints(at)
			parts := make([]string, len(at))
			for i, n := range at {
				f := v.At[n]
				parts[i] = fmt.Sprintf("%.3f / %.3f / %.3f at %d", f.Precision, f.Recall, f.BelievedHarvest, n)
			}
			fmt.Fprintf(&b, "  verdicts over time precision / recall / believed harvest: %s\n", strings.Join(parts, ", "))
		}
	}
	if lp := r.LinkPriority; lp != nil {
		fmt.Fprintf(&b, "  link priority AUC  %.3f  (%d links to relevant pages, mean priority %.3f; %d to others, mean %.3f)\n",
			lp.AUC, lp.Relevant, lp.MeanRelevant, lp.Irrelevant, lp.MeanIrrelevant)
	}
	return b.String()
}

// series is a figure at each checkpoint: "0.500 at 2, 0.750 at 4".
func series(m map[int]float64) string {
	at := make([]int, 0, len(m))
	for n := range m {
		at = append(at, n)
	}
	sort.Ints(at)
	parts := make([]string, len(at))
	for i, n := range at {
		parts[i] = fmt.Sprintf("%.3f at %d", m[n], n)
	}
	return strings.Join(parts, ", ")
}
