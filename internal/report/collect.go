package report

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// Source is what a report reads of a crawl; every frontier.Store is one.
type Source interface {
	Stats(ctx context.Context, q frontier.StatsQuery) (*frontier.Stats, error)
	History(ctx context.Context, fn func(frontier.Fetched) error) error
	Info(ctx context.Context) (map[string]string, error)
}

// Options shape what Collect keeps.
type Options struct {
	// Window is the number of pages of the moving harvest rate (100).
	Window int
	// TopHosts is the number of hosts listed (15).
	TopHosts int
	// MaxPoints bounds the points kept per curve (600): a long crawl is
	// sampled at a regular stride of pages, the last page always kept.
	MaxPoints int
	// TopPages is the number of relevant pages listed, best score first
	// (50).
	TopPages int
}

func (o Options) withDefaults() Options {
	if o.Window <= 0 {
		o.Window = 100
	}
	if o.TopHosts <= 0 {
		o.TopHosts = 15
	}
	if o.MaxPoints < 2 {
		o.MaxPoints = 600
	}
	if o.TopPages <= 0 {
		o.TopPages = 50
	}
	return o
}

// Point is one point of a curve.
type Point struct{ X, Y float64 }

// Crawl is what the report shows of one crawl.
type Crawl struct {
	// Label names the crawl in legends (the database file by default).
	Label string
	// Info is what the crawl's commands recorded (frontier.InfoTopic,
	// InfoLinks, InfoPage).
	Info map[string]string

	Fetched int64 // pages fetched (done or failed), as seed stats counts them
	// Unfetched counts the failed URLs never fetched (seed stats' failed
	// unfetched), left out of Fetched.
	Unfetched int64
	// Redirects counts the URLs done as redirect targets (the page of
	// another URL's fetch), left out of Fetched as seed stats does.
	Redirects int64
	Relevant  int64 // of them judged relevant
	Failed    int64 // of them failed
	Window    int   // pages in the moving window
	First     time.Time
	Last      time.Time

	// Harvest is the cumulative harvest rate after X pages; Moving the
	// rate over the last Window pages (from page Window on, or the last
	// page of a shorter crawl); Found the relevant pages found X seconds
	// after the first fetch.
	Harvest, Moving, Found []Point

	Depths []DepthRow
	Hosts  []HostRow // the TopHosts hosts with the most pages fetched
	Hosts0 int64     // hosts known to the frontier
	States map[string]int64
	// FetchedReserve counts the pages fetched from the reserve (the links
	// score pruned, leased when nothing else was left).
	FetchedReserve int64
	Expired        int64 // leases that ran out
	Errors         []Count
	// ErrorsRequeued counts by kind the failures seed requeue queued
	// again: gone from the failed URLs, kept by the frontier.
	ErrorsRequeued []Count
	// ErrorHosts counts the failures of each host (those requeued since
	// included), most first.
	ErrorHosts []HostErrors
	Status     []Count // HTTP statuses of the pages fetched

	// TopPages are the relevant pages with the highest scores, best
	// first; RelevantListed says how many relevant pages there are to list.
	TopPages []FoundPage
	// Rate is pages fetched per second over the time since the first
	// fetch, in bins of RateBin seconds.
	Rate    []Point
	RateBin float64
	// Queue is the URLs known and not fetched yet (queued, in the
	// reserve, leased, parked or waiting) at the end of each bin of Rate;
	// nil for a store that does not record when URLs were added (Redis).
	Queue []Point
	// Scores counts the scored pages by score, in bins; Threshold is the
	// page threshold, recorded by score --db (ThresholdRecorded) or else
	// taken as the lowest score judged relevant.
	Scores            []ScoreBin
	Threshold         float64
	ThresholdRecorded bool
	// Runs are the starts of the crawl's runs (score --db), with the pages
	// fetched before each: more than one is a crawl resumed.
	Runs    []Run
	Refused []Count // URLs refused, by guard
	Parked  []Parked
}

// FoundPage is one relevant page found; Title comes from the archive
// (seed report --docs), empty without it.
type FoundPage struct {
	URL, Host, Title string
	Score            float64
	Depth            int
	FetchedAt        time.Time
}

// HostErrors counts the failures of one host, by kind.
type HostErrors struct {
	Host     string
	N        int64
	Requeued int64 // of N, those seed requeue queued again since
	Kinds    []Count
}

// ScoreBin counts the scored pages whose score is in [Lo, Hi): all of
// them and those judged relevant.
type ScoreBin struct {
	Lo, Hi          float64
	Pages, Relevant int64
}

// Run is one run of a crawl: when it started and the pages fetched
// before it.
type Run struct {
	Start  time.Time
	Before int64
}

// DepthRow counts the pages of one depth, and its URLs queued and in the
// reserve.
type DepthRow struct {
	Depth                              int
	Fetched, Relevant, Queued, Reserve int64
}

// HostRow counts the pages of one host.
type HostRow struct {
	Host              string
	Fetched, Relevant int64
}

// Count is a number of things of one name.
type Count struct {
	Name string
	N    int64
}

// Parked is a host the frontier parked: its name, why, and whatever else
// the store tells of it (retry time, URLs held…), as names and values.
type Parked struct {
	Host, Reason string
	Extra        [][2]string
}

// Rate is n/of, 0 when of is 0.
func Rate(n, of int64) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// HarvestRate is the crawl's relevant pages over pages fetched.
func (c *Crawl) HarvestRate() float64 { return Rate(c.Relevant, c.Fetched) }

// Collect reads one crawl from src.
func Collect(ctx context.Context, src Source, label string, o Options) (*Crawl, error) {
	o = o.withDefaults()
	c := &Crawl{Label: label, Window: o.Window}
	var err error
	if c.Info, err = src.Info(ctx); err != nil {
		return nil, err
	}
	st, err := src.Stats(ctx, frontier.StatsQuery{}) // the error kinds come from the history
	if err != nil {
		return nil, err
	}
	c.States, c.Expired, c.Hosts0, c.FetchedReserve = st.States, st.Expired, st.Hosts, st.FetchedReserve
	c.Refused = sortedCounts(st.Refused)
	if c.Parked, err = parkedHosts(st); err != nil {
		return nil, err
	}
	c.Runs = parseRuns(c.Info[frontier.InfoRuns])
	if t, err := strconv.ParseFloat(c.Info[frontier.InfoThreshold], 64); err == nil {
		c.Threshold, c.ThresholdRecorded = t, true
	}
	hostErrs := map[string]*HostErrors{}
	hostKinds := map[string]map[string]int64{}
	countHostError := func(host, kind string, n int64, requeued bool) {
		h := hostErrs[host]
		if h == nil {
			h = &HostErrors{Host: host}
			hostErrs[host] = h
			hostKinds[host] = map[string]int64{}
		}
		h.N += n
		if requeued {
			h.Requeued += n
		}
		hostKinds[host][kind] += n
	}
	requeuedKinds := map[string]int64{}
	for _, e := range st.RequeuedErrors {
		countHostError(e.Host, e.Kind, e.N, true)
		requeuedKinds[e.Kind] += e.N
	}
	top := newTopPages(o.TopPages)
	perSecond := map[int64]int64{}
	var scores []float64 // of the scored pages, for the histogram
	var relevantScores []bool
	lowestRelevant := math.Inf(1)
	queued := map[int][2]int64{} // queued, in the reserve
	for _, d := range st.Depths {
		queued[d.Depth] = [2]int64{d.Queued, d.Reserve}
	}

	harvest := newSampler(o.MaxPoints)
	moving := newSampler(o.MaxPoints)
	found := newSampler(o.MaxPoints)
	ring := make([]bool, o.Window)
	var inWindow int64
	depths := map[int]*DepthRow{}
	hosts := map[string]*HostRow{}
	errs := map[string]int64{}
	status := map[string]int64{}
	settled := map[int64]int64{} // URLs done or failed, by the second
	err = src.History(ctx, func(f frontier.Fetched) error {
		settled[f.FetchedAt.Unix()]++
		if f.Unfetched {
			c.Unfetched++ // never fetched: out of the pages fetched, as in seed stats
			return nil
		}
		if f.Redirect {
			c.Redirects++ // the fetch of the URL that led here: counted there, as in seed stats
			return nil
		}
		if c.Fetched == 0 {
			c.First = f.FetchedAt
		}
		c.Last = f.FetchedAt
		n := c.Fetched
		c.Fetched++
		if ring[n%int64(o.Window)] {
			inWindow--
		}
		ring[n%int64(o.Window)] = f.Relevant
		if f.Relevant {
			c.Relevant++
			inWindow++
		}
		d := depths[f.Depth]
		if d == nil {
			d = &DepthRow{Depth: f.Depth}
			depths[f.Depth] = d
		}
		h := hosts[f.Host]
		if h == nil {
			h = &HostRow{Host: f.Host}
			hosts[f.Host] = h
		}
		d.Fetched++
		h.Fetched++
		if f.Relevant {
			d.Relevant++
			h.Relevant++
		}
		if f.Error != "" {
			c.Failed++
			kind := fetcher.ErrorKind(f.Error)
			errs[kind]++
			countHostError(f.Host, kind, 1, false)
		}
		for i := range c.Runs {
			if f.FetchedAt.Before(c.Runs[i].Start) {
				c.Runs[i].Before++
			}
		}
		perSecond[f.FetchedAt.Unix()]++
		if f.Scored && f.Error == "" {
			scores = append(scores, f.Score)
			relevantScores = append(relevantScores, f.Relevant)
			if f.Relevant {
				lowestRelevant = math.Min(lowestRelevant, f.Score)
			}
		}
		if f.Relevant {
			top.add(FoundPage{URL: f.URL, Host: f.Host, Score: f.Score, Depth: f.Depth, FetchedAt: f.FetchedAt})
		}
		if f.Status > 0 {
			status[fmt.Sprint(f.Status)]++
		}
		x := float64(c.Fetched)
		harvest.add(c.Fetched, Point{x, Rate(c.Relevant, c.Fetched)})
		if c.Fetched >= int64(o.Window) {
			moving.add(c.Fetched, Point{x, Rate(inWindow, int64(o.Window))})
		}
		found.add(c.Fetched, Point{f.FetchedAt.Sub(c.First).Seconds(), float64(c.Relevant)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if c.Fetched > 0 && c.Fetched < int64(o.Window) {
		moving.add(c.Fetched, Point{float64(c.Fetched), c.HarvestRate()})
	}
	c.Harvest, c.Moving, c.Found = harvest.points(), moving.points(), found.points()

	for depth, q := range queued {
		if depths[depth] == nil && q[0]+q[1] > 0 {
			depths[depth] = &DepthRow{Depth: depth}
		}
	}
	for _, d := range depths {
		d.Queued, d.Reserve = queued[d.Depth][0], queued[d.Depth][1]
		c.Depths = append(c.Depths, *d)
	}
	sort.Slice(c.Depths, func(i, j int) bool { return c.Depths[i].Depth < c.Depths[j].Depth })
	for _, h := range hosts {
		c.Hosts = append(c.Hosts, *h)
	}
	sort.Slice(c.Hosts, func(i, j int) bool {
		a, b := c.Hosts[i], c.Hosts[j]
		if a.Fetched != b.Fetched {
			return a.Fetched > b.Fetched
		}
		if a.Relevant != b.Relevant {
			return a.Relevant > b.Relevant
		}
		return a.Host < b.Host
	})
	if len(c.Hosts) > o.TopHosts {
		c.Hosts = c.Hosts[:o.TopHosts]
	}
	c.Errors = sortedCounts(errs)
	c.ErrorsRequeued = sortedCounts(requeuedKinds)
	for host, h := range hostErrs {
		h.Kinds = sortedCounts(hostKinds[host])
		c.ErrorHosts = append(c.ErrorHosts, *h)
	}
	sort.Slice(c.ErrorHosts, func(i, j int) bool {
		a, b := c.ErrorHosts[i], c.ErrorHosts[j]
		if a.N != b.N {
			return a.N > b.N
		}
		return a.Host < b.Host
	})
	if len(c.ErrorHosts) > o.TopHosts {
		c.ErrorHosts = c.ErrorHosts[:o.TopHosts]
	}
	c.TopPages = top.sorted()
	c.Rate, c.RateBin = rateCurve(perSecond, c.First, c.Last)
	if a, ok := src.(addedCounter); ok && c.Fetched > 0 {
		added, err := a.AddedPerSecond(ctx)
		if err != nil {
			return nil, err
		}
		c.Queue = queueCurve(added, settled, c.First, c.RateBin, len(c.Rate))
	}
	if !c.ThresholdRecorded && !math.IsInf(lowestRelevant, 1) {
		c.Threshold = lowestRelevant
	}
	c.Scores = scoreBins(scores, relevantScores, c.Threshold)
	c.Status = sortedCounts(status)
	sort.SliceStable(c.Status, func(i, j int) bool { return c.Status[i].Name < c.Status[j].Name })
	return c, nil
}

// sortedCounts lists m, largest first, then by name.
func sortedCounts(m map[string]int64) []Count {
	out := make([]Count, 0, len(m))
	for k, n := range m {
		out = append(out, Count{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// parkedHosts reads the parked hosts of the stats by their JSON name
// ("parked_hosts": objects with "host", "reason" and more), so the report
// shows them from any store that reports them, whatever else it tells
// about each host, and "none" from a store that does not.
func parkedHosts(st *frontier.Stats) ([]Parked, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("report: stats: %w", err)
	}
	return parkedFromJSON(b)
}

// parkedFromJSON reads "parked_hosts" from stats as JSON.
func parkedFromJSON(b []byte) ([]Parked, error) {
	var v struct {
		Parked []map[string]any `json:"parked_hosts"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("report: stats: parked_hosts: %w", err)
	}
	out := make([]Parked, 0, len(v.Parked))
	for _, m := range v.Parked {
		p := Parked{Host: text(m["host"]), Reason: text(m["reason"])}
		keys := make([]string, 0, len(m))
		for k := range m {
			if k != "host" && k != "reason" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p.Extra = append(p.Extra, [2]string{k, text(m[k])})
		}
		out = append(out, p)
	}
	return out, nil
}

// text prints a JSON value for a table cell: a time in UTC to the
// second, a boolean as yes or no, text on one line.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return stamp(t)
		}
		return strings.Join(strings.Fields(v), " ")
	case float64:
		return fmt.Sprint(v)
	case bool:
		if v {
			return "yes"
		}
		return "no"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// sampler keeps at most max points of a curve of n pages (and the last):
// every stride-th page, the stride doubling whenever the points pass max.
type sampler struct {
	max    int
	stride int64
	pts    []Point
	ns     []int64
	last   Point
	lastN  int64
}

func newSampler(max int) *sampler { return &sampler{max: max, stride: 1} }

func (s *sampler) add(n int64, p Point) {
	s.last, s.lastN = p, n
	if n%s.stride != 0 {
		return
	}
	s.pts = append(s.pts, p)
	s.ns = append(s.ns, n)
	if len(s.pts) <= s.max {
		return
	}
	s.stride *= 2
	k := 0
	for i, m := range s.ns {
		if m%s.stride == 0 {
			s.pts[k], s.ns[k] = s.pts[i], m
			k++
		}
	}
	s.pts, s.ns = s.pts[:k], s.ns[:k]
}

// points returns the points kept, the last one added included.
func (s *sampler) points() []Point {
	if s.lastN == 0 {
		return nil
	}
	if len(s.ns) == 0 || s.ns[len(s.ns)-1] != s.lastN {
		return append(s.pts, s.last)
	}
	return s.pts
}
