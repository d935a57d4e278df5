package dedupe

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/dedup"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/kb"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// runner streams docs through the Deduper.
type runner struct {
	// idx and mark keep the index in step with the store (keepInStep).
	idx  *dedup.IndexFile
	mark int64

	s     *cli.Stream
	d     *dedup.Deduper
	fp    *dedup.Fingerprinter
	kb    *kb.KB
	errs  *jsonl.Writer // --errors, or nil: docs with an error are left out
	o     Options
	start time.Time

	// mu orders the Deduper's calls: Emit's, in input order, and the
	// --max-hold expiry's, once a second. err is the first error of
	// either, after which the run writes nothing more.
	mu                                  sync.Mutex
	err                                 error
	irrelevant, hubs, failed, storeMiss int
	outs                                []dedup.Out
	// kept is read by the progress line, from another goroutine.
	kept atomic.Int64
}

// A doc's fate once decoded.
const (
	docItem = iota
	docError
	docIrrelevant
	docHub
	docClosing // the closing record of an over-long line
)

// prepared is a decoded and fingerprinted line, ready for the decision.
type prepared struct {
	kind int
	item *dedup.Item       // docItem
	rec  *record.Knowledge // docError, docClosing: the record to pass on
}

func (r *runner) run(ctx context.Context) error {
	workers := r.o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ord := cli.Ordered[prepared]{Workers: workers, Window: 8 * 64 * workers, Work: r.work, Emit: r.emit,
		// Scored docs, docs, and knowledge records to merge.
		Want: []record.Kind{record.KindScoredDoc, record.KindDoc, record.KindKnowledge}}
	if r.s.Progress {
		ord.Progress = func(done int64, perSecond float64) {
			r.s.Log.Progressf("%d docs read, %d kept, %.0f docs/s", done, r.kept.Load(), perSecond)
		}
	}
	stop := func() {}
	if r.o.MaxHold > 0 {
		stop = cli.Ticker(time.Second, r.expire)
	}
	err := ord.Run(ctx, r.s)
	stop()
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = nil // interrupted: write what is held, as at the end
	}
	if errors.Is(err, r.err) {
		err = nil // the run's own, joined below
	}
	if r.err == nil {
		r.markJournal()
		r.outs, r.err = r.d.Flush(r.outs[:0])
		if r.err == nil {
			r.err = r.handle(r.outs)
		}
	}
	return errors.Join(r.err, err)
}

// expire writes the groups held longer than --max-hold.
func (r *runner) expire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	r.markJournal()
	if r.outs, r.err = r.d.Expire(r.outs[:0], time.Now().Add(-r.o.MaxHold)); r.err == nil {
		r.err = r.handle(r.outs)
	}
}

// work decodes and fingerprints one line, on a worker.
func (r *runner) work(_ context.Context, l jsonl.Line) (prepared, error) {
	var in input
	if err := jsonl.Decode(l.Bytes, &in); err != nil {
		return prepared{}, cli.Reject(err)
	}
	switch {
	case in.URL == "":
		return prepared{}, cli.Reject(errors.New(`doc without "url"`))
	case in.Error != "" && l.Closing:
		return prepared{kind: docClosing, rec: &record.Knowledge{URL: in.URL, Error: in.Error}}, nil
	case in.Error != "":
		return prepared{kind: docError, rec: &record.Knowledge{URL: in.URL, Title: in.Title, Score: in.Score, Error: in.Error, Meta: in.Meta}}, nil
	case !r.o.All && in.Relevant != nil && !*in.Relevant:
		return prepared{kind: docIrrelevant}, nil
	case !r.o.Hubs && in.PageType == "hub":
		return prepared{kind: docHub}, nil
	}
	if !r.o.DocTokens {
		in.Tokens = nil
	}
	return prepared{kind: docItem, item: dedup.NewItem(r.fp, in.doc(), in.Duplicates...)}, nil
}

// emit runs one doc through the Deduper, in input order.
func (r *runner) emit(_ jsonl.Line, p prepared) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	switch p.kind {
	case docClosing:
		r.failed++
		r.err = r.write(p.rec)
	case docError:
		r.failed++
		if r.errs != nil {
			r.err = r.errs.Write(p.rec)
		}
	case docIrrelevant:
		r.irrelevant++
	case docHub:
		r.hubs++
	case docItem:
		r.markJournal()
		if r.outs, r.err = r.d.Add(r.outs[:0], p.item); r.err == nil {
			r.err = r.handle(r.outs)
		}
	}
	return r.err
}

func (r *runner) handle(outs []dedup.Out) error {
	for _, o := range outs {
		if o.Kept {
			r.kept.Add(1)
			if r.kb != nil {
				if err := r.kb.Put(o.Rec); err != nil {
					return err
				}
			}
			if err := r.write(o.Rec); err != nil {
				return err
			}
			continue
		}
		if o.Late && r.kb != nil {
			ok, err := r.kb.AddDuplicate(o.Rec.DuplicateOf, o.Rec.URL)
			if err != nil {
				return err
			}
			if !ok {
				r.storeMiss++
			}
		}
		if r.o.Dedup.EmitDups {
			if err := r.write(o.Rec); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *runner) write(k *record.Knowledge) error {
	return r.s.Out.Write(k)
}

// keepInStep makes the index commit only what the knowledge base has
// committed. The index holds its records in memory (Deferred) and writes
// them when a store commit succeeds, up to the mark taken before the
// Deduper call in progress: every group before it has been stored. A
// failed commit (a full disk) leaves the rest pending, and the run rolls
// it back. The store may end a little ahead of the index, which the next
// run heals (it stores those docs again, by URL); never behind, which
// would lose documents for good: the index would call them duplicates
// of records the store does not have.
func (r *runner) keepInStep(idx *dedup.IndexFile, store *kb.KB) {
	if idx == nil || store == nil {
		return
	}
	r.idx = idx
	idx.Deferred = true
	store.OnCommit(func() error { return idx.CommitTo(r.mark) })
}

// markJournal notes where the index stands before a Deduper call.
func (r *runner) markJournal() {
	if r.idx != nil {
		r.mark = r.idx.Mark()
	}
}

func (r *runner) summary() {
	o := r.o.Dedup
	st := r.d.Stats()
	el := time.Since(r.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(st.In+r.irrelevant+r.hubs+r.failed) / el
	}
	r.s.Log.Infof("%d docs: %d kept, %d duplicates (url %d, exact %d, near %d; %d of earlier runs), %d irrelevant skipped, %d hub pages skipped, %d errors %s; %d groups indexed; %.1fs, %.0f docs/s",
		st.In+r.irrelevant+r.hubs+r.failed, st.Kept, st.Dropped, st.ByURL, st.ByExact, st.ByNear, st.Earlier,
		r.irrelevant, r.hubs, r.failed, r.errorsWhere(), r.d.Groups(), el, rate)
	if st.Replaced > 0 {
		r.s.Log.Infof("--keep %s: %d kept copies replaced by better ones", o.Keep, st.Replaced)
	}
	if st.LateBetter > 0 {
		r.s.Log.Errorf("--keep %s: %d better copies came after their group was written (beyond --window %d) and were dropped; use a larger --window or --window all", o.Keep, st.LateBetter, o.Window)
	}
	if r.storeMiss > 0 {
		r.s.Log.Infof("%d duplicates of records not in the knowledge base (stored by a run without --store?)", r.storeMiss)
	}
}

// errorsWhere says in the summary where the error docs went.
func (r *runner) errorsWhere() string {
	if r.errs == nil {
		return "left out (--errors FILE keeps them)"
	}
	return "written to " + r.o.Errors
}
