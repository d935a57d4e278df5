// Package dedupe is the dedupe stage, callable from Go: it reads docs or
// scored docs and writes one knowledge record per distinct document
// (dedupe.Run), against a persistent index of earlier runs and into a
// knowledge base when asked. cmd/dedupe parses its flags into Options and
// calls it.
package dedupe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/dedup"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/kb"
	"github.com/focuscrawl/focuscrawl/internal/text"
)

// Stage is a run of dedupe set up (New) and not yet streamed: its index
// is open and held, so that a run refused (the index in use, bad options)
// is refused before its output is created.
type Stage struct {
	o      Options
	tok    *text.Tokenizer
	fp     *dedup.Fingerprinter
	d      *dedup.Deduper
	idx    *dedup.IndexFile
	params string
}

// New checks o, opens the index and builds the Deduper. Close releases
// the index when Stream is not called.
func New(o Options) (*Stage, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	st := &Stage{o: o, tok: Tokenizer(o.Words)}
	st.fp = dedup.NewFingerprinter(st.tok, nil)
	st.fp.Shingle = o.Shingle
	st.params = fmt.Sprintf("fingerprint=%s shingle=%d", dedup.FingerprintVersion, st.fp.Shingle)
	if o.Dedup.Method == dedup.MethodEuclid {
		st.fp.VectorTerms = vectorTerms
		st.params += fmt.Sprintf(" vectors=%d", vectorTerms)
	}
	var journal dedup.Journal
	if o.Index != "" {
		idx, err := dedup.OpenIndex(o.Index, st.params)
		if err != nil {
			return nil, err
		}
		st.idx, journal = idx, idx
	}
	d, err := dedup.New(o.Dedup, journal)
	if err != nil {
		st.Close()
		return nil, cli.Usagef("%v", err)
	}
	st.d = d
	return st, nil
}

// Tokenizer cuts text with the dictionary and stop words w (zero: the
// default tokenizer), as the knowledge base was cut.
func Tokenizer(w kb.Words) *text.Tokenizer {
	return text.NewTokenizer(text.Options{Dictionary: w.Dictionary, Stopwords: w.Stopwords})
}

// Close releases the index of a Stage that is not streamed.
func (st *Stage) Close() {
	if st.idx != nil {
		st.idx.Close()
		st.idx = nil
	}
}

// Run streams the docs of in through dedupe and writes the knowledge
// records to out. Rejected lines make it return an error wrapping
// cli.ErrRejected after the whole input is read. When ctx ends, it writes
// the groups it holds and returns at once.
func Run(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	s := cli.NewStream(in, out, nil)
	err := RunStream(ctx, s, o)
	if ctx.Err() != nil {
		return errors.Join(err, s.CloseOutput()) // a read may still be blocked
	}
	return errors.Join(err, s.Close())
}

// RunStream is Run on an open stream, which it does not close.
func RunStream(ctx context.Context, s *cli.Stream, o Options) error {
	st, err := New(o)
	if err != nil {
		return err
	}
	return st.Stream(ctx, s)
}

// Stream loads the index, opens the knowledge base and the errors file,
// and streams s through the Deduper; it logs the summary and does not
// close s. When ctx ends it writes the groups it holds and returns
// without waiting for the input (close s with CloseOutput then: a read
// may still be blocked).
func (st *Stage) Stream(ctx context.Context, s *cli.Stream) error {
	defer st.Close()
	o := st.o
	if st.idx != nil {
		t0 := time.Now()
		if err := st.idx.Replay(st.d.Restore, st.d.RestoreAlias); err != nil {
			return err
		}
		if st.idx.Truncated > 0 {
			s.Log.Errorf("index %s: dropped a damaged tail of %d bytes (a run that crashed); its groups are forgotten", o.Index, st.idx.Truncated)
		}
		s.Log.Infof("index %s: %d groups from earlier runs loaded in %.1fs", o.Index, st.d.Groups(), time.Since(t0).Seconds())
	}
	var store *kb.KB
	if o.Store != "" {
		var err error
		if store, err = kb.Open(o.Store, st.tok); err == nil && o.StoreMaxSize > 0 {
			err = store.LimitSize(o.StoreMaxSize)
		}
		if err == nil {
			err = store.SaveWords(o.Words)
		}
		if err != nil {
			if store != nil {
				store.Close()
			}
			return err
		}
	}
	errFile, err := openErrors(o.Errors)
	if err != nil {
		if store != nil {
			store.Close()
		}
		return err
	}
	r := &runner{s: s, d: st.d, fp: st.fp, kb: store, o: o, errs: errFile, start: time.Now()}
	r.keepInStep(st.idx, store)
	err = r.run(ctx)
	if errFile != nil {
		err = errors.Join(err, errFile.Close())
	}
	if store != nil {
		err = errors.Join(err, store.Close())
	}
	if st.idx != nil {
		if err != nil && store != nil {
			st.idx.Rollback() // what is pending may be missing from the store
		}
		err = errors.Join(err, st.idx.Close())
		st.idx = nil
	}
	r.summary()
	return err
}

// openErrors opens the --errors file, or returns nil.
func openErrors(path string) (*jsonl.Writer, error) {
	if path == "" {
		return nil, nil
	}
	w, err := jsonl.Create(path, nil)
	if err != nil {
		return nil, fmt.Errorf("--errors: %w", err)
	}
	return w, nil
}
