package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/dedup"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/kb"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// vectorTerms is the number of terms kept of each TF-IDF vector for
// --method euclid.
const vectorTerms = 128

// input holds the fields of a doc or scored doc that dedupe uses.
// Decoding skips the rest (blocks, links: most of a scored doc's bytes)
// without building them. Tokens, when the doc carries them (segment's
// and score's do), spare cutting the content again (PrintTokens). Relevant is nil when the record has no
// "relevant" field (segment output), which counts as relevant.
type input struct {
	URL       string      `json:"url"`
	FinalURL  string      `json:"final_url"`
	Canonical string      `json:"canonical"`
	Title     string      `json:"title"`
	Published string      `json:"published"`
	Source    string      `json:"source"`
	Author    string      `json:"author"`
	Content   string      `json:"content"`
	Score     float64     `json:"score"`
	Relevant  *bool       `json:"relevant"`
	Error     string      `json:"error"`
	Meta      record.Meta `json:"meta"`
	// Duplicates: a knowledge record read again keeps the copies it had.
	Duplicates []string  `json:"duplicates"`
	Tokens     tokenList `json:"tokens"`
}

// doc is the scored doc dedup.NewItem reads.
func (in *input) doc() *record.ScoredDoc {
	return &record.ScoredDoc{Doc: record.Doc{URL: in.URL, FinalURL: in.FinalURL, Canonical: in.Canonical,
		Title: in.Title, Published: in.Published, Source: in.Source, Author: in.Author,
		Content: in.Content, Meta: in.Meta, Tokens: in.Tokens}, Score: in.Score}
}

// tokenizer builds the tokenizer of --topic's dictionary and stop words,
// or the default one; words are what it was built from.
func tokenizer(c *ucli.Context) (*text.Tokenizer, kb.Words, error) {
	path := c.String(cli.FlagTopic)
	if path == "" {
		return text.NewTokenizer(text.Options{}), kb.Words{}, nil
	}
	p, err := topic.Load(path)
	if err != nil {
		return nil, kb.Words{}, &cli.UsageError{Err: err}
	}
	w := kb.Words{Dictionary: p.Dictionary, Stopwords: p.Stopwords}
	return text.NewTokenizer(text.Options{Dictionary: w.Dictionary, Stopwords: w.Stopwords}), w, nil
}

func runDedupe(c *ucli.Context) error {
	opt, err := options(c)
	if err != nil {
		return err
	}
	tok, words, err := tokenizer(c)
	if err != nil {
		return err
	}
	fp := dedup.NewFingerprinter(tok, nil)
	fp.Shingle = c.Int(flagShingle)
	params := fmt.Sprintf("fingerprint=%s shingle=%d", dedup.FingerprintVersion, fp.Shingle)
	if opt.Method == dedup.MethodEuclid {
		fp.VectorTerms = vectorTerms
		params += fmt.Sprintf(" vectors=%d", vectorTerms)
	}

	var idx *dedup.IndexFile
	var journal dedup.Journal
	if path := c.String(flagIndex); path != "" {
		if idx, err = dedup.OpenIndex(path, params); err != nil {
			return err
		}
		defer func() {
			if idx != nil {
				idx.Close()
			}
		}()
		journal = idx
	}
	d, err := dedup.New(opt, journal)
	if err != nil {
		return cli.Usagef("%v", err)
	}
	s, err := cli.OpenStreamWith(c, c.Args().Slice(), os.Stdin, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return err
	}
	if idx != nil {
		t0 := time.Now()
		if err := idx.Replay(d.Restore, d.RestoreAlias); err != nil {
			s.Close()
			return err
		}
		if idx.Truncated > 0 {
			s.Log.Errorf("index %s: dropped a damaged tail of %d bytes (a run that crashed); its groups are forgotten", c.String(flagIndex), idx.Truncated)
		}
		s.Log.Infof("index %s: %d groups from earlier runs loaded in %.1fs", c.String(flagIndex), d.Groups(), time.Since(t0).Seconds())
	}
	var store *kb.KB
	if path := c.String(flagStore); path != "" {
		if store, err = kb.Open(path, tok); err == nil {
			err = limitStore(c, store)
		}
		if err == nil {
			err = store.SaveWords(words)
		}
		if err != nil {
			s.Close()
			return err
		}
	}
	maxHold := c.Duration(flagMaxHold)
	if opt.Window < 0 && !c.IsSet(flagMaxHold) {
		maxHold = 0 // --window all: exact policies unless asked otherwise
	}
	workers := c.Int(flagWorkers)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errFile, err := openErrors(c)
	if err != nil {
		if store != nil {
			store.Close()
		}
		s.Close()
		return err
	}
	r := &runner{ctx: c.Context, s: s, d: d, fp: fp, kb: store, all: c.Bool(flagAll), errs: errFile, errsPath: c.String(flagErrors),
		docTokens: c.Bool(flagDocTokens), emitDups: opt.EmitDups, workers: workers, maxHold: maxHold, start: time.Now()}
	keepInStep(r, idx, store)
	err = r.run()
	if errFile != nil {
		err = errors.Join(err, errFile.Close())
	}
	if store != nil {
		err = errors.Join(err, store.Close())
	}
	if idx != nil {
		if err != nil && store != nil {
			idx.Rollback() // what is pending may be missing from the store
		}
		err = errors.Join(err, idx.Close())
		idx = nil
	}
	r.summary(opt)
	if r.interrupted {
		// stdin may still be held by the blocked reader: leave it.
		return errors.Join(err, s.CloseOutput())
	}
	return errors.Join(err, s.Close())
}

// runner streams docs through the Deduper.
type runner struct {
	// idx and mark keep the index in step with the store (keepInStep).
	idx  *dedup.IndexFile
	mark int64

	ctx      context.Context
	s        *cli.Stream
	d        *dedup.Deduper
	fp       *dedup.Fingerprinter
	kb       *kb.KB
	errs     *jsonl.Writer // --errors, or nil: docs with an error are left out
	errsPath string
	all      bool
	emitDups bool
	// docTokens: fingerprint from the tokens docs carry (--doc-tokens).
	docTokens bool
	workers   int
	maxHold   time.Duration
	start     time.Time

	interrupted                            bool
	irrelevant, failed, written, storeMiss int
	outs                                   []dedup.Out
	// read and kept are read by the progress line, from another goroutine.
	read, kept atomic.Int64
}

// A doc's fate once decoded.
const (
	docItem = iota
	docReject
	docError
	docIrrelevant
)

// batch is a run of input lines, decoded and fingerprinted by a worker
// and then decided in order.
type batch struct {
	lines []jsonl.Line
	kind  []int
	items []*dedup.Item
	errs  []error
	recs  []record.Knowledge // docError: the record to pass on
	done  chan struct{}
}

const batchLines = 64

func (r *runner) run() error {
	work := make(chan *batch, r.workers*2)
	order := make(chan *batch, r.workers*4)
	// The reader's error comes back through readErrc, sent before order
	// is closed: the interrupt path, which does not wait for the reader
	// (it may be blocked on stdin), takes it only if it is there.
	readErrc := make(chan error, 1)
	go func() { // the reader: the only goroutine touching s.In
		var readErr error
		defer close(work)
		defer close(order)
		defer func() { readErrc <- readErr }()
		for {
			if r.ctx.Err() != nil {
				return
			}
			b := &batch{done: make(chan struct{})}
			for len(b.lines) < batchLines {
				l, err := r.s.In.Next()
				if err == io.EOF {
					break
				}
				if err != nil && !errors.Is(err, jsonl.ErrLineTooLong) {
					readErr = err
					break
				}
				l.Bytes = append([]byte(nil), l.Bytes...)
				b.lines = append(b.lines, l)
				b.errs = append(b.errs, err)
				if !r.s.In.Buffered() {
					break
				}
			}
			if len(b.lines) == 0 {
				return
			}
			work <- b
			order <- b
			if readErr != nil {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range r.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				r.prepare(b)
				close(b.done)
			}
		}()
	}
	if r.s.Progress {
		stop := cli.Ticker(time.Second, func() {
			el := time.Since(r.start).Seconds()
			r.s.Log.Progressf("%d docs read, %d kept, %.0f docs/s", r.read.Load(), r.kept.Load(), float64(r.read.Load())/el)
		})
		defer r.s.Log.EndProgress()
		defer stop()
	}
	var err error
	expire := time.NewTicker(time.Second)
	defer expire.Stop()
loop:
	for {
		select {
		case <-expire.C:
			if err == nil && r.maxHold > 0 {
				r.markJournal()
				if r.outs, err = r.d.Expire(r.outs[:0], time.Now().Add(-r.maxHold)); err == nil {
					err = r.handle(r.outs)
				}
			}
		case b, ok := <-order:
			if !ok {
				break loop
			}
			<-b.done
			if err == nil {
				err = r.decide(b)
			}
		case <-r.ctx.Done():
			// The reader may be blocked on stdin: stop here, write what is
			// held and let the process end.
			r.interrupted = true
			break loop
		}
	}
	if !r.interrupted {
		wg.Wait()
	}
	if err == nil {
		r.markJournal()
		r.outs, err = r.d.Flush(r.outs[:0])
		if err == nil {
			err = r.handle(r.outs)
		}
	}
	var readErr error
	select {
	case readErr = <-readErrc:
	default: // interrupted while the reader still reads
	}
	return errors.Join(err, readErr)
}

// prepare decodes and fingerprints the lines of b.
func (r *runner) prepare(b *batch) {
	n := len(b.lines)
	b.kind = make([]int, n)
	b.items = make([]*dedup.Item, n)
	b.recs = make([]record.Knowledge, n)
	for i, l := range b.lines {
		if b.errs[i] != nil {
			b.kind[i] = docReject
			continue
		}
		var in input
		if !decodeInput(l.Bytes, &in) {
			in = input{}
			if err := jsonl.Decode(l.Bytes, &in); err != nil {
				b.kind[i], b.errs[i] = docReject, err
				continue
			}
		}
		switch {
		case in.URL == "":
			b.kind[i], b.errs[i] = docReject, errors.New(`doc without "url"`)
		case in.Error != "":
			b.kind[i] = docError
			b.recs[i] = record.Knowledge{URL: in.URL, Title: in.Title, Score: in.Score, Error: in.Error, Meta: in.Meta}
		case !r.all && in.Relevant != nil && !*in.Relevant:
			b.kind[i] = docIrrelevant
		default:
			b.kind[i] = docItem
			if !r.docTokens {
				in.Tokens = nil
			}
			b.items[i] = dedup.NewItem(r.fp, in.doc(), in.Duplicates...)
		}
	}
}

// decide runs the docs of b through the Deduper in order.
func (r *runner) decide(b *batch) error {
	r.read.Add(int64(len(b.lines)))
	for i, l := range b.lines {
		switch b.kind[i] {
		case docReject:
			r.s.Rejects.Reject(l, b.errs[i])
			if err := r.closeLongLine(l, b.errs[i]); err != nil {
				return err
			}
		case docError:
			r.failed++
			if err := r.writeError(&b.recs[i]); err != nil {
				return err
			}
		case docIrrelevant:
			r.irrelevant++
		case docItem:
			var err error
			r.markJournal()
			if r.outs, err = r.d.Add(r.outs[:0], b.items[i]); err != nil {
				return err
			}
			if err := r.handle(r.outs); err != nil {
				return err
			}
		}
	}
	return nil
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
		if r.emitDups {
			if err := r.write(o.Rec); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *runner) write(k *record.Knowledge) error {
	r.written++
	return r.s.Out.Write(k)
}

func (r *runner) summary(o dedup.Options) {
	st := r.d.Stats()
	el := time.Since(r.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(st.In+r.irrelevant+r.failed) / el
	}
	r.s.Log.Infof("%d docs: %d kept, %d duplicates (url %d, exact %d, near %d; %d of earlier runs), %d irrelevant skipped, %d errors %s; %d groups indexed; %.1fs, %.0f docs/s",
		st.In+r.irrelevant+r.failed, st.Kept, st.Dropped, st.ByURL, st.ByExact, st.ByNear, st.Earlier,
		r.irrelevant, r.failed, r.errorsWhere(), r.d.Groups(), el, rate)
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
