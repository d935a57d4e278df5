package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Flag names of the frontier commands.
const (
	flagDB             = "db"
	flagScope          = "scope"
	flagHostsFromTopic = "hosts-from-topic"
	flagMaxDepth       = "max-depth"
	flagAllow          = "allow"
	flagDeny           = "deny"
	flagMaxPerHost     = "max-per-host"
	flagMaxPathDepth   = "max-path-depth"
	flagMaxRepeat      = "max-repeat"
	flagMaxQuery       = "max-query-params"
	flagMaxURLLength   = "max-url-length"
	flagSeedPriority   = "priority"
	flagLinkPriority   = "link-priority"
	flagKeepPruned     = "keep-pruned"
	flagFollowNofollow = "follow-nofollow"
	flagNoGraph        = "no-graph"
	flagKeepSessionIDs = "keep-session-ids"
)

// addBatchSize is how many records go into one transaction at most; a
// batch is also written as soon as input pauses, so pages in a crawl loop
// are recorded within ~50 ms.
const (
	addBatchSize = 20000
	addBatchWait = 50 * time.Millisecond
)

func dbFlag() ucli.Flag {
	return &ucli.StringFlag{Name: flagDB, Usage: "the frontier: a SQLite `FILE`, created if missing, or redis://HOST:PORT/DB?prefix=NAME (docs/frontier.md)", EnvVars: cli.Env(flagDB), Required: true}
}

// openExisting opens the frontier of a command that reads it (next,
// stats): a missing file is a mistake, not an empty frontier to create.
func openExisting(ctx context.Context, path string) (frontier.Store, error) {
	s, err := frontier.OpenExisting(ctx, path)
	if errors.Is(err, frontier.ErrNoFrontier) {
		return nil, cli.Usagef("--%s %s: no such frontier (seed add --db %s creates it)", flagDB, path, path)
	}
	return s, err
}

// sinkFlags are the stream flags of a command that writes no records.
func sinkFlags() []ucli.Flag {
	var fs []ucli.Flag
	for _, f := range cli.StreamFlags() {
		if f.Names()[0] != cli.FlagOutput {
			fs = append(fs, f)
		}
	}
	return fs
}

func addCommand() *ucli.Command {
	return &ucli.Command{
		Name:      "add",
		Usage:     "record returning pages and queue URLs and links in the frontier",
		ArgsUsage: "[FILE...]",
		Description: "Reads url, page, doc and scored records (or plain URLs). url records are queued;\n" +
			"page, doc and scored records mark their URL done and queue their links with their\n" +
			"priorities. A URL seen again keeps its best priority and lowest depth.",
		Flags: append([]ucli.Flag{
			dbFlag(),
			&ucli.StringFlag{Name: flagScope, Value: cli.ScopeAny, Usage: "links may lead to: host (the page's host), site (its registrable domain), any", EnvVars: cli.Env("add-scope")},
			&ucli.StringFlag{Name: flagHostsFromTopic, Usage: "admit only the hosts of the address library of topic `FILE`", EnvVars: cli.Env(flagHostsFromTopic)},
			&ucli.IntFlag{Name: flagMaxDepth, Usage: "refuse URLs more than `N` links from a seed (0: no limit)", EnvVars: cli.Env(flagMaxDepth)},
			&ucli.StringSliceFlag{Name: flagAllow, Usage: "admit only URLs matching one of these `REGEXP`s (repeatable)", EnvVars: cli.Env(flagAllow)},
			&ucli.StringSliceFlag{Name: flagDeny, Usage: "refuse URLs matching any of these `REGEXP`s (repeatable)", EnvVars: cli.Env(flagDeny)},
			&ucli.Int64Flag{Name: flagMaxPerHost, Value: 100000, Usage: "trap guard: at most `N` URLs per host (0: no limit)", EnvVars: cli.Env(flagMaxPerHost)},
			&ucli.IntFlag{Name: flagMaxPathDepth, Value: 16, Usage: "trap guard: at most `N` path segments (0: no limit)", EnvVars: cli.Env(flagMaxPathDepth)},
			&ucli.IntFlag{Name: flagMaxRepeat, Value: 2, Usage: "trap guard: one path segment at most `N` times (0: no limit)", EnvVars: cli.Env(flagMaxRepeat)},
			&ucli.IntFlag{Name: flagMaxQuery, Value: 8, Usage: "trap guard: at most `N` query parameters (0: no limit)", EnvVars: cli.Env(flagMaxQuery)},
			&ucli.IntFlag{Name: flagMaxURLLength, Value: 2048, Usage: "trap guard: at most `N` bytes per URL (0: no limit)", EnvVars: cli.Env(flagMaxURLLength)},
			&ucli.Float64Flag{Name: flagSeedPriority, Value: 1, Usage: "priority of url records that carry none", EnvVars: cli.Env(flagSeedPriority)},
			&ucli.Float64Flag{Name: flagLinkPriority, Value: 0.5, Usage: "priority of the links of unscored doc records", EnvVars: cli.Env(flagLinkPriority)},
			&ucli.BoolFlag{Name: flagKeepPruned, Usage: "queue links score marked pruned (under the link threshold)", EnvVars: cli.Env(flagKeepPruned)},
			&ucli.BoolFlag{Name: flagFollowNofollow, Usage: "queue rel=nofollow links too", EnvVars: cli.Env(flagFollowNofollow)},
			&ucli.BoolFlag{Name: flagNoGraph, Usage: "do not keep the link graph (edges table)", EnvVars: cli.Env(flagNoGraph)},
			&ucli.BoolFlag{Name: flagKeepSessionIDs, Usage: "keep session ids (sid=, PHPSESSID=, ;jsessionid= …) in URLs instead of stripping them (a trap: every page hands out new ones)", EnvVars: cli.Env(flagKeepSessionIDs)},
		}, append(append(retryFlags(), sinkFlags()...), archiveFlag())...),
		Action: runAdd,
	}
}

func runAdd(c *ucli.Context) error {
	a, err := newAdder(c)
	if err != nil {
		return err
	}
	if a.archive, err = openArchive(c); err != nil {
		return err
	}
	store, err := frontier.Open(c.Context, c.String(flagDB))
	if err != nil {
		return err
	}
	defer store.Close()
	st, err := cli.OpenStream(c)
	if err != nil {
		return err
	}
	sum, err := a.run(c.Context, store, st.In, st.Rejects, st.Log, st.Progress)
	st.Log.Infof("%s", sum)
	return errors.Join(err, a.archive.close(), st.Close())
}

// adder turns input records into frontier batches.
type adder struct {
	policy         frontier.Policy
	scope          frontier.Scope
	maxPerHost     int64
	seedPriority   float64
	linkPriority   float64
	keepPruned     bool
	followNofollow bool
	graph          bool
	keepSessionIDs bool
	retry          *frontier.RetryPolicy
	mu             sync.Mutex
	sites          map[string]string // host -> site key
	archive        *addArchive       // --archive, or nil
}

func newAdder(c *ucli.Context) (*adder, error) {
	scopeValue, err := addScope.Value(c)
	if err != nil {
		return nil, err
	}
	scope := frontierScope(scopeValue)
	a := &adder{
		sites:          map[string]string{},
		scope:          scope,
		maxPerHost:     c.Int64(flagMaxPerHost),
		seedPriority:   c.Float64(flagSeedPriority),
		linkPriority:   c.Float64(flagLinkPriority),
		keepPruned:     c.Bool(flagKeepPruned),
		followNofollow: c.Bool(flagFollowNofollow),
		graph:          !c.Bool(flagNoGraph),
		keepSessionIDs: c.Bool(flagKeepSessionIDs),
		policy: frontier.Policy{
			Scope:          scope,
			MaxDepth:       c.Int(flagMaxDepth),
			MaxPathDepth:   c.Int(flagMaxPathDepth),
			MaxRepeat:      c.Int(flagMaxRepeat),
			MaxQueryParams: c.Int(flagMaxQuery),
			MaxURLLength:   c.Int(flagMaxURLLength),
		},
	}
	for _, f := range []struct {
		name string
		dst  *[]*regexp.Regexp
	}{{flagAllow, &a.policy.Allow}, {flagDeny, &a.policy.Deny}} {
		for _, expr := range c.StringSlice(f.name) {
			re, err := regexp.Compile(expr)
			if err != nil {
				return nil, cli.Usagef("--%s %q: %v", f.name, expr, err)
			}
			*f.dst = append(*f.dst, re)
		}
	}
	if a.retry, err = retryPolicy(c); err != nil {
		return nil, err
	}
	for _, f := range []string{flagSeedPriority, flagLinkPriority} {
		if v := c.Float64(f); v < 0 || v > 1 {
			return nil, cli.Usagef("--%s %v: a priority is in [0,1]", f, v)
		}
	}
	if path := c.String(flagHostsFromTopic); path != "" {
		p, err := topic.Load(path)
		if err != nil {
			return nil, cli.Usagef("--%s: %w", flagHostsFromTopic, err)
		}
		if len(p.Hosts) == 0 {
			return nil, cli.Usagef("--%s %s: the profile has no hosts (its address library is empty)", flagHostsFromTopic, path)
		}
		hosts := p.Hosts
		a.policy.InLibrary = func(h string) bool {
			for _, e := range hosts {
				if e.Match(h) {
					return true
				}
			}
			return false
		}
	}
	return a, nil
}

// addSummary counts what one run of seed add did.
type addSummary struct {
	records int64
	frontier.Applied
	refused map[string]int64
}

func (s *addSummary) String() string {
	msg := fmt.Sprintf("%d records: %d pages recorded, %d URLs queued, %d improved, %d already known",
		s.records, s.Done, s.Queued, s.Raised, s.Known)
	if s.Requeued > 0 {
		msg += fmt.Sprintf(", %d put back (parked host, retry or cancelled)", s.Requeued)
	}
	if len(s.refused) > 0 {
		names := make([]string, 0, len(s.refused))
		for k := range s.refused {
			names = append(names, k)
		}
		sort.Strings(names)
		var parts []string
		for _, k := range names {
			parts = append(parts, fmt.Sprintf("%s %d", k, s.refused[k]))
		}
		msg += "; refused: " + strings.Join(parts, ", ")
	}
	return msg
}

// run reads every input line, builds batches and applies them, each as
// soon as it is full or the input pauses.
func (a *adder) run(ctx context.Context, store frontier.Store, in *jsonl.Reader, rej *jsonl.Rejects, log *cli.Logger, progress bool) (*addSummary, error) {
	sum := &addSummary{refused: map[string]int64{}}
	type parsed struct {
		b   frontier.Batch
		err error // a read error ends the run
	}
	ch := make(chan parsed, 64)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// One goroutine reads lines, a few parse them (the order of records
	// does not matter to the frontier: done wins over queued, the best
	// priority wins), and this one writes the batches.
	type job struct {
		name string
		num  int
		line []byte
	}
	jobs := make(chan job, 256)
	var wg sync.WaitGroup
	send := func(p parsed) bool {
		select {
		case ch <- p:
			return true
		case <-ctx.Done():
			return false
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		for {
			l, err := in.Next()
			switch {
			case err == io.EOF:
				return
			case errors.Is(err, jsonl.ErrLineTooLong):
				rej.Reject(l, err)
				closing, ok := closingLine(l.Bytes, err)
				if !ok {
					continue
				}
				l.Bytes = closing
			case err != nil:
				send(parsed{err: err})
				return
			}
			if err := a.archive.line(l.Bytes); err != nil {
				send(parsed{err: err})
				return
			}
			select {
			case jobs <- job{l.Name, l.Num, bytes.Clone(l.Bytes)}:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				b, err := a.parse(j.line)
				switch {
				case errors.Is(err, jsonl.ErrComment):
				case err != nil:
					rej.Reject(jsonl.Line{Name: j.name, Num: j.num, Bytes: j.line}, err)
				default:
					if !send(parsed{b: b}) {
						return
					}
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(ch)
	}()
	if progress {
		start := time.Now()
		stop := cli.Ticker(time.Second, func() {
			log.Progressf("%d records, %.0f/s, %d queued", sum.records, float64(sum.records)/time.Since(start).Seconds(), sum.Queued)
		})
		defer log.EndProgress()
		defer stop()
	}
	var batch frontier.Batch
	var pending int
	flush := func() error {
		if pending == 0 {
			return nil
		}
		if err := a.archive.flush(); err != nil {
			return err
		}
		batch.MaxPerHost, batch.Retry = a.maxPerHost, a.retry
		res, err := store.Apply(context.WithoutCancel(ctx), batch)
		if err != nil {
			return err
		}
		sum.Queued += res.Queued
		sum.Raised += res.Raised
		sum.Known += res.Known
		sum.Done += res.Done
		sum.Requeued += res.Requeued
		if res.Refused > 0 {
			sum.refused[frontier.GuardMaxPerHost] += int64(res.Refused)
		}
		for guard, n := range res.Guards {
			sum.refused[guard] += n
		}
		batch, pending = frontier.Batch{}, 0
		return nil
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case p, ok := <-ch:
			if !ok {
				return sum, flush()
			}
			if p.err != nil {
				return sum, errors.Join(p.err, flush())
			}
			sum.records++
			for k, n := range p.b.Refused {
				sum.refused[k] += n
				if batch.Refused == nil {
					batch.Refused = map[string]int64{}
				}
				batch.Refused[k] += n
			}
			batch.Done = append(batch.Done, p.b.Done...)
			batch.Queue = append(batch.Queue, p.b.Queue...)
			batch.Edges = append(batch.Edges, p.b.Edges...)
			if pending == 0 {
				timer.Reset(addBatchWait)
			}
			pending += 1 + len(p.b.Queue)
			if pending >= addBatchSize {
				timer.Stop()
				if err := flush(); err != nil {
					return sum, err
				}
			}
		case <-timer.C:
			if err := flush(); err != nil {
				return sum, err
			}
		case <-ctx.Done():
			// Records already read are written: they were taken from the
			// pipe and would be lost otherwise.
			return sum, errors.Join(flush(), ctx.Err())
		}
	}
}

// linkRecord is a link as page, doc or scored records carry it; Priority
// and Inherited are set by score.
type linkRecord struct {
	URL       string  `json:"url"`
	Anchor    string  `json:"anchor"`
	Context   string  `json:"context"`
	Nofollow  bool    `json:"nofollow"`
	Priority  float64 `json:"priority"`
	Inherited float64 `json:"inherited"`
	Pruned    bool    `json:"pruned"`
}

// returning is what seed add reads from a page, doc or scored record.
type returning struct {
	URL       string       `json:"url"`
	FinalURL  string       `json:"final_url"`
	Status    int          `json:"status"`
	FetchedAt time.Time    `json:"fetched_at"`
	Score     *float64     `json:"score"`
	Relevant  bool         `json:"relevant"`
	Links     []linkRecord `json:"links"`
	record.Lineage
	Error string `json:"error"`
}

// parse turns one input line into its part of a batch.
func (a *adder) parse(line []byte) (frontier.Batch, error) {
	var b frontier.Batch
	if !jsonl.IsJSON(line) {
		u, err := jsonl.DecodeURL(line)
		if err != nil {
			return b, err
		}
		return b, a.addURL(&b, u)
	}
	kind := sniff(line)
	switch kind {
	case record.KindURL:
		u, err := jsonl.DecodeURL(line)
		if err != nil {
			return b, err
		}
		return b, a.addURL(&b, u)
	case record.KindPage, record.KindDoc, record.KindScoredDoc:
		var r returning
		if err := jsonl.Decode(line, &r); err != nil {
			return b, err
		}
		if err := jsonl.CheckURLField(line); err != nil {
			return b, err
		}
		if r.URL == "" {
			return b, errors.New(`missing "url" field`)
		}
		return b, a.addReturning(&b, &r, kind)
	}
	return b, fmt.Errorf("a %s record: seed add takes url, page, doc and scored records", kind)
}

// kindKeys are the fields record.Sniff tells kinds by. A line that names
// none of them is a url record, which spares the probe decoding for the
// common case of URL lists.
var kindKeys = [][]byte{[]byte(`"status"`), []byte(`"html"`), []byte(`"score"`), []byte(`"relevant"`),
	[]byte(`"tokens"`), []byte(`"blocks"`), []byte(`"page_type"`), []byte(`"content"`), []byte(`"kind"`),
	[]byte(`"pages_fetched"`), []byte(`"fingerprint"`)}

func sniff(line []byte) record.Kind {
	if !bytes.Contains(line, []byte(`\u`)) { // keys may be written with escapes
		found := false
		for _, k := range kindKeys {
			if bytes.Contains(line, k) {
				found = true
				break
			}
		}
		if !found {
			return record.KindURL
		}
	}
	k, ok := record.Sniff(line)
	if !ok {
		// Not JSON after all (or nested too deep): the url record
		// decoder says what is wrong, in the words other stages use.
		return record.KindURL
	}
	return k
}

func (a *adder) refuse(b *frontier.Batch, guard string) {
	if b.Refused == nil {
		b.Refused = map[string]int64{}
	}
	b.Refused[guard]++
}

// site gives the site key of a host, through a cache: links crowd on few
// hosts, and the public suffix lookup is not free.
func (a *adder) site(host string) string {
	if a.scope == frontier.ScopeHost {
		return host
	}
	a.mu.Lock()
	s, ok := a.sites[host]
	a.mu.Unlock()
	if ok {
		return s
	}
	s = urlx.SiteKey(host)
	a.mu.Lock()
	if len(a.sites) >= siteCacheSize {
		clear(a.sites)
	}
	a.sites[host] = s
	a.mu.Unlock()
	return s
}

// siteCacheSize bounds the site key cache.
const siteCacheSize = 100000

// normalize gives the frontier's key of a URL: its normal form, without
// session ids unless --keep-session-ids.
func (a *adder) normalize(raw string) (string, error) {
	n, err := urlx.Normalize(raw)
	if err != nil || a.keepSessionIDs {
		return n, err
	}
	return urlx.StripSessionIDs(n), nil
}

// addURL queues a url record.
func (a *adder) addURL(b *frontier.Batch, u record.URL) error {
	if u.Error != "" {
		a.refuse(b, "error-record")
		return nil
	}
	norm, err := a.normalize(u.URL)
	if err != nil {
		return fmt.Errorf("url %q: %w", u.URL, err)
	}
	e := frontier.Entry{URL: norm, Host: frontier.HostOf(norm), Lineage: u.Lineage, Meta: u.Meta}
	e.Site = a.site(e.Host)
	if e.Priority == 0 {
		e.Priority = a.seedPriority
	}
	cand := frontier.Candidate{URL: norm, Host: e.Host, Site: e.Site, Depth: u.Depth}
	if u.Parent != "" {
		cand.ParentHost = urlx.Host(u.Parent)
		cand.ParentSite = a.site(cand.ParentHost)
	}
	if guard := a.policy.Check(cand); guard != "" {
		a.refuse(b, guard)
		return nil
	}
	b.Queue = append(b.Queue, e)
	return nil
}

// addReturning records a page, doc or scored record and queues its links.
func (a *adder) addReturning(b *frontier.Batch, r *returning, kind record.Kind) error {
	norm, err := a.normalize(r.URL)
	if err != nil {
		return fmt.Errorf("url %q: %w", r.URL, err)
	}
	o := frontier.Outcome{URL: norm, Host: frontier.HostOf(norm), Depth: r.Depth, Status: r.Status,
		FetchedAt: r.FetchedAt, Error: r.Error}
	o.Site = a.site(o.Host)
	if r.FinalURL != "" {
		if fin, err := a.normalize(r.FinalURL); err == nil && fin != norm {
			o.FinalURL, o.FinalHost = fin, frontier.HostOf(fin)
		}
	}
	if kind == record.KindScoredDoc && r.Score != nil {
		o.Scored, o.Score, o.Relevant = true, *r.Score, r.Relevant
	}
	b.Done = append(b.Done, o)

	pageHost := o.Host
	if o.FinalHost != "" {
		pageHost = o.FinalHost
	}
	pageSite := a.site(pageHost)
	for _, l := range r.Links {
		switch {
		case l.Pruned && !a.keepPruned:
			a.refuse(b, frontier.GuardPruned)
			continue
		case l.Nofollow && !a.followNofollow:
			a.refuse(b, frontier.GuardNofollow)
			continue
		}
		lu, err := a.normalize(l.URL)
		if err != nil {
			a.refuse(b, frontier.GuardInvalidURL)
			continue
		}
		host := frontier.HostOf(lu)
		cand := frontier.Candidate{URL: lu, Host: host, Site: a.site(host), Depth: r.Depth + 1,
			ParentHost: pageHost, ParentSite: pageSite}
		if guard := a.policy.Check(cand); guard != "" {
			a.refuse(b, guard)
			continue
		}
		prio := l.Priority
		if kind != record.KindScoredDoc {
			prio = a.linkPriority
		}
		e := frontier.Entry{URL: lu, Host: host}
		e.Site, e.Depth, e.Priority = cand.Site, cand.Depth, prio
		e.Parent, e.Anchor, e.Inherited = norm, l.Anchor, l.Inherited
		b.Queue = append(b.Queue, e)
		if a.graph {
			b.Edges = append(b.Edges, frontier.Edge{From: norm, To: lu, Priority: prio, Anchor: l.Anchor, Context: l.Context})
		}
	}
	return nil
}
