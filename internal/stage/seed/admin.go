package seed

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// Stats writes the summary of store (seed stats): states, harvest rate,
// depths, parked hosts and refusals, with the top hosts and the error
// kinds that q asks for, as a table or as one JSON object.
func Stats(ctx context.Context, store frontier.Reader, w io.Writer, q frontier.StatsQuery, asJSON bool) error {
	st, err := store.Stats(ctx, q)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(w).Encode(st)
	}
	return writeStatsTable(w, st, q)
}

// Peek writes the n URLs Next would lease next (seed peek), as a table or
// one JSON object per URL.
func Peek(ctx context.Context, admin frontier.HostAdmin, w io.Writer, n int, asJSON bool) error {
	qs, err := admin.Peek(ctx, n)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(w)
		for _, q := range qs {
			if err := enc.Encode(q); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "priority\tdepth\thost\ttries\tparked\treserve\turl\t\n")
	for _, q := range qs {
		parked, reserve := "", ""
		if q.Parked {
			parked = "parked"
		}
		if q.Reserve {
			reserve = "reserve"
		}
		fmt.Fprintf(tw, "%.4f\t%d\t%s\t%d\t%s\t%s\t%s\t\n", q.Priority, q.Depth, cli.Printable(q.Host), q.Tries, parked, reserve, cli.Printable(q.URL))
	}
	return tw.Flush()
}

// Requeue queues again the failed URLs and releases the parked hosts that
// match f (seed requeue), and says how many on w.
func Requeue(ctx context.Context, admin frontier.HostAdmin, w io.Writer, f frontier.RequeueFilter, asJSON bool) error {
	res, err := admin.Requeue(ctx, f)
	if err != nil {
		return err
	}
	if res.URLs == 0 && res.Hosts == 0 && f.Kind != "" && !KnownErrorKind(f.Kind) {
		here := "none"
		if r, ok := admin.(frontier.Reader); ok {
			if st, err := r.Stats(ctx, frontier.StatsQuery{ErrorKinds: true}); err == nil && len(st.Errors) > 0 {
				here = kindList(st.Errors)
			}
		}
		return cli.Usagef("--error %q: no such kind of error; the kinds of this frontier's failed URLs: %s; the kinds seed requeue knows: %s (docs/records.md, Error kinds), or a kind of your own stage's errors", f.Kind, here, strings.Join(ErrorKinds, ", "))
	}
	if asJSON {
		_, err = fmt.Fprintf(w, `{"urls":%d,"hosts":%d,"held":%d}`+"\n", res.URLs, res.Hosts, res.Held)
		return err
	}
	_, err = fmt.Fprintf(w, "requeued %d failed URLs; released %d parked hosts holding %d URLs\n", res.URLs, res.Hosts, res.Held)
	return err
}

// writeStatsTable prints the stats for people: the tables of top hosts
// and error kinds when q asked for them.
func writeStatsTable(w io.Writer, st *frontier.Stats, q frontier.StatsQuery) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "URLs\t%d\t\n", st.Total)
	for _, s := range []frontier.State{frontier.Queued, frontier.Reserve, frontier.Leased, frontier.Done, frontier.Failed, frontier.Parked, frontier.Waiting} {
		fmt.Fprintf(tw, "  %s\t%d\t\n", s, st.States[s.String()])
	}
	fmt.Fprintf(tw, "fetched\t%d\t\n", st.Fetched)
	if st.FetchedReserve > 0 {
		fmt.Fprintf(tw, "  from reserve\t%d\t\n", st.FetchedReserve)
	}
	if st.Unfetched > 0 {
		fmt.Fprintf(tw, "failed unfetched\t%d\t\n", st.Unfetched)
	}
	fmt.Fprintf(tw, "put back\t%d\t\n", st.Requeued)
	fmt.Fprintf(tw, "relevant\t%d\t\n", st.Relevant)
	fmt.Fprintf(tw, "harvest rate\t%.3f\t\n", st.HarvestRate)
	fmt.Fprintf(tw, "hosts\t%d\t\n", st.Hosts)
	fmt.Fprintf(tw, "links kept\t%d\t\n", st.Edges)
	fmt.Fprintf(tw, "leases expired\t%d\t\n", st.Expired)
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "depth\tfetched\trelevant\tharvest\tqueued\treserve\t\n")
	for _, d := range st.Depths {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%d\t%d\t\n", d.Depth, d.Fetched, d.Relevant, rate(d.Relevant, d.Fetched), d.Queued, d.Reserve)
	}
	if len(st.TopHosts) > 0 {
		fmt.Fprintln(tw)
		fmt.Fprintf(tw, "host\tURLs\tfetched\trelevant\t\n")
		for _, h := range st.TopHosts {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", cli.Printable(h.Host), h.URLs, h.Fetched, h.Relevant)
		}
	}
	if q.ErrorKinds {
		writeErrors(tw, st)
	}
	writeParkedHosts(tw, st.ParkedHosts)
	if len(st.Refused) > 0 {
		fmt.Fprintln(tw)
		fmt.Fprintf(tw, "refused by\tURLs\t\n")
		names := make([]string, 0, len(st.Refused))
		for k := range st.Refused {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(tw, "%s\t%d\t\n", cli.Printable(k), st.Refused[k])
		}
	}
	return tw.Flush()
}

// writeErrors prints the failed URLs by kind of error (the kinds seed
// requeue --error takes), beside the failures of each kind that seed
// requeue queued again.
func writeErrors(tw io.Writer, st *frontier.Stats) {
	requeued := map[string]int64{}
	for _, e := range st.RequeuedErrors {
		requeued[e.Kind] += e.N
	}
	if len(st.Errors) == 0 && len(requeued) == 0 {
		return
	}
	all := map[string]int64{}
	for k, n := range st.Errors {
		all[k] += n
	}
	for k := range requeued {
		all[k] += 0
	}
	kinds := make([]string, 0, len(all))
	for k := range all {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		a, b := all[kinds[i]]+requeued[kinds[i]], all[kinds[j]]+requeued[kinds[j]]
		if a != b {
			return a > b
		}
		return kinds[i] < kinds[j]
	})
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "error kind\tfailed\trequeued before\t\n")
	for _, k := range kinds {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", k, st.Errors[k], requeued[k])
	}
}

// kindList names the kinds of errs with their numbers, most first:
// "http 404 (12), connect (3)".
func kindList(errs map[string]int64) string {
	kinds := make([]string, 0, len(errs))
	for k := range errs {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if errs[kinds[i]] != errs[kinds[j]] {
			return errs[kinds[i]] > errs[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s (%d)", k, errs[k])
	}
	return strings.Join(parts, ", ")
}

// writeParkedHosts prints the parked and given-up hosts.
func writeParkedHosts(tw io.Writer, ps []frontier.ParkedHost) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "parked host\tURLs held\ttries\tsince\tnext retry\treason\t\n")
	for _, p := range ps {
		next := p.NextRetry.Format(time.DateTime)
		if p.GivenUp {
			next = "given up"
		} else if p.NextRetry.IsZero() {
			next = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t\n", cli.Printable(p.Host), p.URLs, p.Tries, p.Since.Format(time.DateTime), next, oneLine(p.Reason, 80))
	}
}

// oneLine shortens s to at most n runes on one line, printable (a
// reason may quote a server's answer).
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(cli.Printable(s)), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func rate(n, of int64) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", float64(n)/float64(of))
}

// ErrorKinds are the kinds of error seed requeue --error takes: fetch's
// (docs/records.md, Error kinds) and the families of http statuses.
var ErrorKinds = []string{"dns", "connect", "timeout", "network", "robots-unreachable", "robots-disallow",
	"http", "4xx", "5xx", "http NNN", "blocked address", "invalid url", "tls", "redirect", "body", "proxy", "canceled", "input"}

// KnownErrorKind tells whether kind is one of ErrorKinds ("http 404" for
// "http NNN").
func KnownErrorKind(kind string) bool {
	if code, ok := strings.CutPrefix(kind, "http "); ok {
		return len(code) == 3 && strings.Trim(code, "0123456789") == ""
	}
	return slices.Contains(ErrorKinds, kind) && kind != "http NNN"
}
