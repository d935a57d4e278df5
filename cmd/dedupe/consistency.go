package main

import (
	"errors"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/dedup"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/kb"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// limitStore applies --store-max-size.
func limitStore(c *ucli.Context, store *kb.KB) error {
	v := c.String(flagStoreMaxSize)
	if v == "" {
		return nil
	}
	n, err := cli.ParseSize(v)
	if err != nil || n <= 0 {
		return cli.Usagef("--%s: %q is not a size like 512MiB", flagStoreMaxSize, v)
	}
	return store.LimitSize(n)
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
func keepInStep(r *runner, idx *dedup.IndexFile, store *kb.KB) {
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

// closeLongLine answers a line over the reader's cap with an error
// record for the URL at its start, as the other stages do.
func (r *runner) closeLongLine(l jsonl.Line, err error) error {
	if !errors.Is(err, jsonl.ErrLineTooLong) {
		return nil
	}
	u, ok := jsonl.URLOfPrefix(l.Bytes)
	if !ok {
		return nil
	}
	r.failed++
	return r.write(&record.Knowledge{URL: u, Error: "input: " + err.Error()})
}
