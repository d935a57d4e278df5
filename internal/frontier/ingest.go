package frontier

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// IngestOptions say how an Ingester turns records into frontier work.
type IngestOptions struct {
	// Policy turns candidates away (scope, depth, allow/deny, traps,
	// the host library). Its Scope also decides what a site key is.
	Policy Policy
	// SeedPriority is the priority of url records that carry none;
	// LinkPriority that of the links of unscored records.
	SeedPriority, LinkPriority float64
	// Pruned says what becomes of the links score marked pruned: queued
	// in the reserve (the zero value), queued, or refused.
	Pruned PrunedLinks
	// FollowNofollow queues rel=nofollow links.
	FollowNofollow bool
	// Graph keeps the links as edges.
	Graph bool
	// KeepSessionIDs leaves session ids in URLs (they are stripped
	// otherwise: every page handing out new ones is a trap).
	KeepSessionIDs bool
}

// Ingester is the domain logic of seed add: it turns one input line — a
// url record, a plain URL, or a returning page, doc or scored record —
// into its part of a Batch: URLs normalised (session ids stripped), site
// keys, the policy's guards, priorities, the page's outcome and its links.
// Parse is safe for concurrent use.
type Ingester struct {
	o     IngestOptions
	mu    sync.Mutex
	sites map[string]string // host -> site key
}

// NewIngester returns an Ingester with options o.
func NewIngester(o IngestOptions) *Ingester {
	return &Ingester{o: o, sites: map[string]string{}}
}

// ingestLink is a link as page, doc or scored records carry it; Priority
// and Inherited are set by score.
type ingestLink struct {
	URL       string  `json:"url"`
	Anchor    string  `json:"anchor"`
	Context   string  `json:"context"`
	Nofollow  bool    `json:"nofollow"`
	Priority  float64 `json:"priority"`
	Inherited float64 `json:"inherited"`
	Pruned    bool    `json:"pruned"`
	past      int     // in a pageLinks' last element: the links past MaxPageLinks
}

// returning is what the Ingester reads from a page, doc or scored record.
type returning struct {
	URL       string    `json:"url"`
	FinalURL  string    `json:"final_url"`
	Status    int       `json:"status"`
	FetchedAt time.Time `json:"fetched_at"`
	Score     *float64  `json:"score"`
	Relevant  bool      `json:"relevant"`
	Links     pageLinks `json:"links"`
	record.Lineage
	Error string `json:"error"`
}

// Parse turns one input line into its part of a batch. A comment line of
// a URL list gives jsonl.ErrComment.
func (in *Ingester) Parse(line []byte) (Batch, error) {
	var b Batch
	kind := record.KindURL
	if jsonl.IsJSON(line) {
		kind = sniff(line)
	}
	switch kind {
	case record.KindURL:
		u, err := jsonl.DecodeURL(line)
		if err != nil {
			return b, err
		}
		if u.Error == "" && !cameBack(line) {
			return b, in.addURL(&b, u)
		}
		// A record for a URL the pipe had: settle it whatever fields it kept.
		fallthrough
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
		return b, in.addReturning(&b, &r, kind == record.KindScoredDoc || r.Score != nil)
	}
	return b, fmt.Errorf("a %s record: seed add takes url, page, doc and scored records", kind)
}

// refuse counts one candidate turned away by guard.
func refuse(b *Batch, guard string) {
	if b.Refused == nil {
		b.Refused = map[string]int64{}
	}
	b.Refused[guard]++
}

// site gives the site key of a host, through a cache: links crowd on few
// hosts, and the public suffix lookup is not free.
func (in *Ingester) site(host string) string {
	if in.o.Policy.Scope == ScopeHost {
		return host
	}
	in.mu.Lock()
	s, ok := in.sites[host]
	in.mu.Unlock()
	if ok {
		return s
	}
	s = urlx.SiteKey(host)
	in.mu.Lock()
	if len(in.sites) >= siteCacheSize {
		clear(in.sites)
	}
	in.sites[host] = s
	in.mu.Unlock()
	return s
}

// siteCacheSize bounds the site key cache.
const siteCacheSize = 100000

// normalize gives the frontier's key of a URL: its normal form, without
// session ids unless KeepSessionIDs.
func (in *Ingester) normalize(raw string) (string, error) {
	n, err := urlx.Normalize(raw)
	if err != nil || in.o.KeepSessionIDs {
		return n, err
	}
	return urlx.StripSessionIDs(n), nil
}

// returnKeys are the fields that fetch and the stages after it write and
// a url record has not: a record with one of them (or with an error) has
// been through the pipe, whatever its kind looks like — segment's error
// record keeps no status, a custom stage may keep a few fields only — and
// comes back to settle its URL, which would stay leased otherwise.
var returnKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range record.Keys(record.Page{}, record.Doc{}, record.ScoredDoc{}) {
		m[k] = true
	}
	for _, k := range record.Keys(record.URL{}) {
		delete(m, k)
	}
	return m
}()

// cameBack tells whether a line that reads as a url record carries a
// field of a page, doc or scored record.
func cameBack(line []byte) bool {
	if !jsonl.IsJSON(line) {
		return false
	}
	var buf [16]jsonl.Member
	ms, err := jsonl.Members(line, buf[:0])
	if err != nil {
		return false
	}
	for _, m := range ms {
		if returnKeys[m.Name(line)] {
			return true
		}
	}
	return false
}

// addURL queues a url record.
func (in *Ingester) addURL(b *Batch, u record.URL) error {
	norm, err := in.normalize(u.URL)
	if err != nil {
		return fmt.Errorf("url %q: %w", u.URL, err)
	}
	e := Entry{URL: norm, Host: HostOf(norm), Lineage: u.Lineage, Meta: u.Meta}
	e.Site = in.site(e.Host)
	if e.Priority == 0 {
		e.Priority = in.o.SeedPriority
	}
	cand := Candidate{URL: norm, Host: e.Host, Site: e.Site, Depth: u.Depth}
	if u.Parent != "" {
		cand.ParentHost = urlx.Host(u.Parent)
		cand.ParentSite = in.site(cand.ParentHost)
	}
	if guard := in.o.Policy.Check(cand); guard != "" {
		refuse(b, guard)
		return nil
	}
	b.Queue = append(b.Queue, e)
	return nil
}

// addReturning records a page, doc or scored record and queues its links.
func (in *Ingester) addReturning(b *Batch, r *returning, scored bool) error {
	o, err := in.outcome(r, scored)
	if err != nil {
		return err
	}
	b.Done = append(b.Done, o)
	page := Candidate{URL: o.URL, ParentHost: o.Host, Depth: r.Depth + 1}
	if o.FinalHost != "" {
		page.ParentHost = o.FinalHost
	}
	page.ParentSite = in.site(page.ParentHost)
	links := r.Links.kept()
	for i := range links {
		in.addLink(b, page, &links[i], scored)
	}
	if n := r.Links.dropped(); n > 0 {
		if b.Refused == nil {
			b.Refused = map[string]int64{}
		}
		b.Refused[GuardMaxLinks] += int64(n)
	}
	return nil
}

// outcome is the frontier's record of a returning page.
func (in *Ingester) outcome(r *returning, scored bool) (Outcome, error) {
	norm, err := in.normalize(r.URL)
	if err != nil {
		return Outcome{}, fmt.Errorf("url %q: %w", r.URL, err)
	}
	o := Outcome{URL: norm, Host: HostOf(norm), Depth: r.Depth, Status: r.Status,
		FetchedAt: r.FetchedAt, Error: r.Error}
	o.Site = in.site(o.Host)
	if r.FinalURL != "" {
		if fin, err := in.normalize(r.FinalURL); err == nil && fin != norm {
			o.FinalURL, o.FinalHost = fin, HostOf(fin)
		}
	}
	if scored && r.Score != nil {
		o.Scored, o.Score, o.Relevant = true, *r.Score, r.Relevant
	}
	return o, nil
}

// addLink queues one link of a page (page.URL, at page.Depth, on
// page.ParentHost and page.ParentSite) unless a guard turns it away.
func (in *Ingester) addLink(b *Batch, page Candidate, l *ingestLink, scored bool) {
	switch {
	case l.Pruned && in.o.Pruned == PrunedDrop:
		refuse(b, GuardPruned)
		return
	case l.Nofollow && !in.o.FollowNofollow:
		refuse(b, GuardNofollow)
		return
	}
	lu, err := in.normalize(l.URL)
	if err != nil {
		refuse(b, GuardInvalidURL)
		return
	}
	cand := page
	cand.URL, cand.Host = lu, HostOf(lu)
	cand.Site = in.site(cand.Host)
	if guard := in.o.Policy.Check(cand); guard != "" {
		refuse(b, guard)
		return
	}
	prio := l.Priority
	if !scored {
		prio = in.o.LinkPriority
	}
	e := Entry{URL: lu, Host: cand.Host}
	e.Site, e.Depth, e.Priority = cand.Site, cand.Depth, prio
	e.Parent, e.Anchor, e.Inherited = page.URL, l.Anchor, l.Inherited
	e.Reserve = l.Pruned && in.o.Pruned == PrunedReserve
	b.Queue = append(b.Queue, e)
	if in.o.Graph {
		b.Edges = append(b.Edges, Edge{From: page.URL, To: lu, Priority: prio, Anchor: l.Anchor, Context: l.Context})
	}
}
