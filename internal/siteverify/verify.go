package siteverify

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Fetcher fetches one page; *fetcher.Fetcher satisfies it. Fetch never
// fails: errors are in the page's Error field ("robots-disallow…" for a
// URL that robots.txt forbids, "robots-unreachable…" when it could not be
// fetched, "canceled" when ctx ended).
type Fetcher interface {
	Fetch(ctx context.Context, u record.URL) record.Page
}

// Judgement is what a Judge makes of one fetched page.
type Judgement struct {
	// Score is F(p) in [0,1].
	Score float64
	// Links are the page's links, absolute and normalised.
	Links []record.Link
	// Err says why the page could not be judged ("" when it was).
	Err string
}

// Judge scores a fetched page and lists its links; *DocJudge satisfies
// it. It must be safe for concurrent use.
type Judge interface {
	Judge(p record.Page) Judgement
}

// PageResult is one page fetched while verifying a site, for
// Options.OnPage.
type PageResult struct {
	Page record.Page
	// Class is the page's AbstractURL.
	Class string
	// Score is F(p); Good says it reached the page threshold.
	Score float64
	Good  bool
	// Judged is false for pages that were not scored (errors, robots,
	// off-site redirects).
	Judged bool
}

// ErrCanceled is the Error of a verdict whose run was interrupted.
var ErrCanceled = errors.New("canceled")

// Verifier verifies sites. It is safe for concurrent use: Verify may run
// for several sites at once.
type Verifier struct {
	f Fetcher
	j Judge
	o Options
}

// New returns a Verifier; it names the option at fault when one is out
// of range.
func New(f Fetcher, j Judge, o Options) (*Verifier, error) {
	o, err := o.check()
	if err != nil {
		return nil, err
	}
	return &Verifier{f: f, j: j, o: o}, nil
}

// Options returns the options in use, defaults filled in.
func (v *Verifier) Options() Options { return v.o }

// Key returns the site key of a URL under the verifier's scope ("" when
// the URL has no host).
func (v *Verifier) Key(rawURL string) string { return SiteKey(rawURL, v.o.Scope) }

// SiteKey returns the site key of a URL: its registrable domain with
// ScopeSite, its host[:port] with ScopeHost; "" when it has no host.
func SiteKey(rawURL, scope string) string {
	if scope == ScopeHost {
		return urlx.Host(rawURL)
	}
	return urlx.SiteKey(rawURL)
}

// run is the verification of one site.
type run struct {
	v    *Verifier
	site *Site
	keys map[string]bool // site keys that count as this site
	fr   *frontier
	seen map[string]bool // queued or fetched
	// judged holds the pages judged, by the URL asked for and the URL
	// they ended at.
	judged  map[string]bool
	verdict record.Verdict
	start   float64 // F(p0)
	// starting is true while the start page is looked for.
	starting bool
	// dry counts the pages judged since the last good one (patience).
	dry int
}

// Verify decides whether the site is relevant. It always returns a
// verdict: a site that cannot be verified gets Relevant false, the reason
// and an Error.
func (v *Verifier) Verify(ctx context.Context, s *Site) record.Verdict {
	r := &run{v: v, site: s, keys: map[string]bool{s.Key: true}, fr: newFrontier(v.o.Strategy == StrategyBFS, v.o.Prior, v.o.PageThreshold),
		seen: map[string]bool{}, judged: map[string]bool{}}
	r.verdict = record.Verdict{Site: s.Key, Meta: s.Meta()}
	defer s.finish()
	if err := r.startPage(ctx); err != nil {
		return r.fail(ctx, err)
	}
	for r.verdict.GoodPages < v.o.NumRelPages {
		if r.verdict.PagesFetched >= v.o.NumExpPages {
			r.verdict.Reason = fmt.Sprintf("budget of %d pages spent: %s", v.o.NumExpPages, r.goodSummary())
			return r.done()
		}
		if p := r.v.o.Patience; p > 0 && r.dry >= p {
			r.verdict.Reason = fmt.Sprintf("%d pages in a row without one ≥ %g (patience) after %d fetched: %s",
				r.dry, r.v.o.PageThreshold, r.verdict.PagesFetched, r.goodSummary())
			return r.done()
		}
		r.takeLate()
		cd := r.fr.next()
		if cd == nil {
			r.verdict.Reason = fmt.Sprintf("no page left to fetch after %d: %s", r.verdict.PagesFetched, r.goodSummary())
			return r.done()
		}
		if r.judged[cd.u.URL] {
			continue // reached through a redirect already
		}
		if _, err := r.visit(ctx, cd.u, cd.class.name); err != nil {
			return r.fail(ctx, err)
		}
	}
	r.verdict.Relevant = true
	r.verdict.Reason = fmt.Sprintf("%s ≥ %g after %d fetched", plural(r.verdict.GoodPages, "page"), v.o.PageThreshold, r.verdict.PagesFetched)
	return r.done()
}

func (r *run) goodSummary() string {
	switch r.verdict.GoodPages {
	case 0:
		return fmt.Sprintf("no page ≥ %g", r.v.o.PageThreshold)
	case 1:
		return fmt.Sprintf("1 page ≥ %g, %d needed", r.v.o.PageThreshold, r.v.o.NumRelPages)
	}
	return fmt.Sprintf("%d pages ≥ %g, %d needed", r.verdict.GoodPages, r.v.o.PageThreshold, r.v.o.NumRelPages)
}

// plural writes "1 page", "3 pages".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func (r *run) done() record.Verdict {
	sort.SliceStable(r.verdict.Evidence, func(i, j int) bool { return r.verdict.Evidence[i].Score > r.verdict.Evidence[j].Score })
	r.verdict.Classes = r.fr.stats()
	r.verdict.BestScore = round3(r.verdict.BestScore)
	return r.verdict
}

// fail ends the run with an error verdict.
func (r *run) fail(ctx context.Context, err error) record.Verdict {
	v := r.done()
	v.Relevant = false
	if ctx.Err() != nil || errors.Is(err, ErrCanceled) {
		v.Error = ErrCanceled.Error()
		v.Reason = fmt.Sprintf("canceled after %d pages fetched", v.PagesFetched)
		return v
	}
	v.Error = err.Error()
	v.Reason = err.Error()
	return v
}

// startPage fetches p0: the best-ranked input URL that answers, else the
// next ones in rank order, else the home page of p0's host. The input URLs
// not tried are queued as if found on the start page.
func (r *run) startPage(ctx context.Context) error {
	if len(r.site.URLs) == 0 {
		return errors.New("start page: the site has no URL")
	}
	tries := append([]record.URL(nil), r.site.URLs...)
	if home := homeOf(tries[0].URL); home != "" {
		tries = append(tries, record.URL{URL: home, Lineage: record.Lineage{Site: r.site.Key}})
	}
	inputs := len(r.site.URLs)
	r.starting = true
	defer func() { r.starting = false }()
	var firstErr error
	for i, u := range tries {
		if r.verdict.PagesFetched >= r.v.o.NumExpPages {
			break
		}
		norm, err := urlx.Normalize(u.URL)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("start page %s: %w", u.URL, err)
			}
			continue
		}
		if r.seen[norm] {
			continue
		}
		u.URL = norm
		res, err := r.visit(ctx, u, ClassOf(norm, r.v.o.Classes))
		if err != nil {
			return err
		}
		if res.ok {
			r.start = res.score
			r.starting = false
			for _, rest := range tries[i+1 : max(i+1, inputs)] {
				r.queue(rest, res.score, norm)
			}
			return nil
		}
		if firstErr == nil {
			firstErr = fmt.Errorf("start page %s: %s", u.URL, res.why)
		}
	}
	if firstErr == nil {
		firstErr = errors.New("start page: no usable URL")
	}
	return firstErr
}

// visitResult is what visit learned of one page.
type visitResult struct {
	ok    bool // judged
	score float64
	why   string // when not ok
}

// visit fetches u (of class abs), scores it, and queues its same-site
// links. The error is set only when the run must stop (cancellation).
func (r *run) visit(ctx context.Context, u record.URL, abs string) (visitResult, error) {
	r.seen[u.URL] = true
	if u.Site == "" {
		u.Site = r.site.Key
	}
	p := r.v.f.Fetch(ctx, u)
	if ctx.Err() != nil || p.Error == ErrCanceled.Error() {
		return visitResult{}, ErrCanceled
	}
	res := PageResult{Page: p, Class: abs}
	if k, _, _ := strings.Cut(p.Error, ":"); k == "robots-disallow" || k == "robots-unreachable" {
		r.report(res)
		return visitResult{why: "robots: the site's robots.txt forbids it, or could not be fetched"}, nil
	}
	r.verdict.PagesFetched++
	final := u.URL
	if p.FinalURL != "" {
		if n, err := urlx.Normalize(p.FinalURL); err == nil {
			final = n
			r.seen[n] = true
		}
	}
	switch {
	case p.Error != "":
		r.fr.failed(abs)
		r.report(res)
		return visitResult{why: p.Error}, nil
	case p.Status < 200 || p.Status > 299:
		r.fr.failed(abs)
		r.report(res)
		return visitResult{why: fmt.Sprintf("http %d", p.Status)}, nil
	case final != u.URL && r.judged[final]:
		// A redirect to a page judged already (/show.asp?id=7 →
		// /item.php?id=7): the same page must not count twice.
		r.report(res)
		return visitResult{why: "same page as " + final}, nil
	case !r.keys[r.v.Key(final)]:
		if r.starting && r.v.o.Scope == ScopeHost && urlx.SiteKey(final) == urlx.SiteKey(u.URL) {
			// The start page moved to another host of the same domain
			// (example.com → www.example.com): that host is the site.
			r.keys[r.v.Key(final)] = true
			break
		}
		r.fr.failed(abs)
		r.report(res)
		return visitResult{why: "redirected to another site: " + final}, nil
	}
	r.judged[final] = true
	r.judged[u.URL] = true
	j := r.v.j.Judge(p)
	if j.Err != "" {
		r.fr.failed(abs)
		r.report(res)
		return visitResult{why: j.Err}, nil
	}
	res.Judged, res.Score = true, j.Score
	res.Good = j.Score >= r.v.o.PageThreshold
	r.fr.expand(abs, j.Score)
	if j.Score > r.verdict.BestScore {
		r.verdict.BestScore = j.Score
	}
	r.dry++
	if res.Good {
		r.dry = 0
		r.verdict.GoodPages++
		r.verdict.Evidence = append(r.verdict.Evidence, record.Evidence{URL: final, Score: round3(j.Score)})
	}
	r.report(res)
	for _, l := range j.Links {
		r.queue(record.URL{URL: l.URL, Lineage: record.Lineage{Depth: u.Depth + 1, Parent: u.URL, Anchor: l.Anchor}}, j.Score, u.URL)
	}
	return visitResult{ok: true, score: j.Score}, nil
}

// queue adds a link found on page parent (of score from) when it is of
// the site, fetchable and new.
func (r *run) queue(u record.URL, from float64, parent string) {
	norm, err := urlx.Normalize(u.URL)
	if err != nil || r.seen[norm] || !r.keys[r.v.Key(norm)] {
		return
	}
	r.seen[norm] = true
	u.URL = norm
	u.Site = r.site.Key
	r.fr.push(u, ClassOf(norm, r.v.o.Classes), from, parent)
}

// takeLate queues the input URLs of the site that arrived after the run
// started, as if found on the start page.
func (r *run) takeLate() {
	for _, u := range r.site.takeLate() {
		r.queue(u, r.start, "")
	}
}

func (r *run) report(res PageResult) {
	if r.v.o.OnPage != nil {
		r.v.o.OnPage(r.site.Key, res)
	}
}

// homeOf returns scheme://host/ of a URL ("" when it has no host).
func homeOf(raw string) string {
	n, err := urlx.Normalize(raw)
	if err != nil {
		return ""
	}
	i := strings.Index(n, "://")
	if i < 0 {
		return ""
	}
	rest := n[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		rest = rest[:j]
	}
	return n[:i+3] + rest + "/"
}
