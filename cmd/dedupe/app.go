package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/dedup"
	"github.com/focuscrawl/focuscrawl/internal/kb"
	"github.com/focuscrawl/focuscrawl/internal/stage/dedupe"
	"github.com/focuscrawl/focuscrawl/internal/topic"
)

// Flag names.
const (
	flagHamming      = "hamming"
	flagMethod       = "method"
	flagMaxDistance  = "max-distance"
	flagCandidateK   = "candidate-k"
	flagKeep         = "keep"
	flagWindow       = "window"
	flagMaxHold      = "max-hold"
	flagEmitDups     = "emit-dups"
	flagAll          = "all"
	flagHubs         = "hubs"
	flagIndex        = "index"
	flagStore        = "store"
	flagStoreMaxSize = "store-max-size"
	flagShingle      = "shingle"
	flagMinTokens    = "min-tokens"
	flagWorkers      = "workers"
	flagDocTokens    = "doc-tokens"
	// flagErrors: docs that carry an error are not knowledge (a knowledge
	// file that starts with failed fetches reads as a broken crawl), so by
	// default they are only counted.
	flagErrors = "errors"
)

const description = `Reads scored docs (score output) or docs (segment output) and writes one knowledge
record per distinct document. Only docs with "relevant": true are kept unless --all; docs
without a "relevant" field count as relevant. A doc is a duplicate of an earlier one when
  - its URL, final URL or canonical link is one already seen (a canonical link that points
    at a site's home page, or at a text far from this one, is ignored),
  - its content is the same once white space is collapsed, or
  - its content is a near-duplicate: SimHash fingerprints at Hamming distance <= -k
    (--method simhash), or TF-IDF vectors at Euclidean distance <= --max-distance among the
    SimHash candidates at distance <= --candidate-k (--method euclid, the test of docs/algorithms.md §5).
    Each text also has SimHashes of itself without one of its paragraphs (up to 8), so a
    copy that lost a paragraph is found too.
Docs that carry tokens (segment's and score's) are fingerprinted from them rather than cut
again: give dedupe the --topic segment used, or --doc-tokens=false.
Kept records list the URLs folded into them in "duplicates"; --emit-dups also writes the
dropped copies, with "duplicate_of".

Each group of copies is held for --window more input docs before it is written, so later
copies still join it and --keep longest|best-score|newest can replace the kept copy with a
better one. A better copy that arrives after its group was written is dropped (it points to
the written record) and counted in the summary: raise --window, or use --window all to hold
everything until the end of the input (exact policies, memory grows with the input).
A group is also written once it has been held for --max-hold, so a slow stream keeps
flowing.
With --index FILE, groups from earlier runs are known: their copies are dropped (earlier
runs always win), and this run's groups are added. A second run on the same index is
refused while the first holds it. --store FILE writes kept records into a SQLite knowledge
base and adds later copies to their stored record's duplicates.`

func newApp() *ucli.App {
	def := dedup.DefaultOptions()
	app := cli.New(cli.App{
		Name:    "dedupe",
		Usage:   "remove duplicate and near-duplicate docs; knowledge records and knowledge base",
		Args:    "[FILE...]",
		Example: "score --topic t.yaml docs.jsonl | dedupe --index kb.idx --store kb.sqlite > knowledge.jsonl",
		Flags: append([]ucli.Flag{
			&ucli.IntFlag{Name: flagHamming, Aliases: []string{"k"}, Value: def.K, Usage: fmt.Sprintf("near-duplicates: SimHash Hamming distance <= `K` (0..%d)", dedup.MaxK)},
			&ucli.StringFlag{Name: flagMethod, Value: def.Method, Usage: "near-duplicate test: simhash or euclid (TF-IDF Euclidean distance on SimHash candidates)"},
			&ucli.Float64Flag{Name: flagMaxDistance, Value: def.MaxDistance, Usage: "--method euclid: duplicates at Euclidean distance <= `D` of unit TF-IDF vectors (0..2)"},
			&ucli.IntFlag{Name: flagCandidateK, Value: def.CandidateK, Usage: "--method euclid: SimHash candidates within Hamming distance `K`"},
			&ucli.StringFlag{Name: flagKeep, Value: "first", Usage: "which copy to keep: first, longest, best-score or newest"},
			&ucli.StringFlag{Name: flagWindow, Value: strconv.Itoa(def.Window), Usage: "hold each group for `N` more docs before writing it (0: write at once; all: until the end)"},
			&ucli.DurationFlag{Name: flagMaxHold, Value: 10 * time.Second, Usage: "write a held group after `DURATION` even before its window closes, so slow input keeps flowing (0: never)"},
			&ucli.BoolFlag{Name: flagEmitDups, Usage: "also write the dropped copies, with duplicate_of"},
			&ucli.BoolFlag{Name: flagAll, Usage: "keep docs with \"relevant\": false too"},
			&ucli.BoolFlag{Name: flagHubs, Usage: "keep hub pages (page_type hub: home, list and channel pages) too"},
			&ucli.StringFlag{Name: flagIndex, Usage: "persistent index `FILE`: de-duplicate against earlier runs and add this one"},
			&ucli.StringFlag{Name: flagStore, Usage: "write kept records to the knowledge base `FILE` (SQLite, FTS5)"},
			&ucli.StringFlag{Name: flagStoreMaxSize, Usage: "cap the knowledge base file at `SIZE` (512MiB, 2GiB …): a run that fills it stops as on a full disk, the index kept in step"},
			&ucli.IntFlag{Name: flagShingle, Value: 1, Usage: "SimHash features: single tokens, and shingles of `N` tokens (1: tokens only)"},
			&ucli.IntFlag{Name: flagMinTokens, Value: def.MinTokens, Usage: "texts with fewer than `N` tokens are matched by URL and exact content only"},
			&ucli.IntFlag{Name: flagWorkers, Usage: "goroutines decoding and fingerprinting (0: the number of CPUs)", DefaultText: "number of CPUs"},
			&ucli.BoolFlag{Name: flagDocTokens, Value: true, Usage: "fingerprint docs that carry tokens (segment's, score's) from them instead of cutting the content again; turn off when segment ran with another --topic than dedupe's"},
			cli.TopicFlag(false),
			&ucli.StringFlag{Name: flagErrors, Usage: "write the docs that carry an error (failed fetch, segment or score) to `FILE` (.gz/.zst compress); by default they are left out of the output and counted"},
		}, cli.StreamFlags()...),
		Action:   runDedupe,
		Commands: []*ucli.Command{searchCommand(), exportCommand()},
	})
	app.Description = description
	return app
}

// options reads the flags into the stage's Options.
func options(c *ucli.Context) (dedupe.Options, error) {
	o := dedupe.DefaultOptions()
	d := &o.Dedup
	d.K = c.Int(flagHamming)
	d.Method = c.String(flagMethod)
	d.MaxDistance = c.Float64(flagMaxDistance)
	d.CandidateK = c.Int(flagCandidateK)
	d.MinTokens = c.Int(flagMinTokens)
	d.EmitDups = c.Bool(flagEmitDups)
	keep, err := dedup.ParsePolicy(c.String(flagKeep))
	if err != nil {
		return o, cli.Usagef("--keep: %v", err)
	}
	d.Keep = keep
	if d.Window, err = dedupe.ParseWindow(c.String(flagWindow)); err != nil {
		return o, err
	}
	o.Shingle = c.Int(flagShingle)
	if err := o.Check(); err != nil {
		return o, err
	}
	if v := c.String(flagStoreMaxSize); v != "" {
		if o.StoreMaxSize, err = cli.ParseSize(v); err != nil || o.StoreMaxSize <= 0 {
			return o, cli.Usagef("--%s: %q is not a size like 512MiB", flagStoreMaxSize, v)
		}
	}
	o.Index, o.Store, o.Errors = c.String(flagIndex), c.String(flagStore), c.String(flagErrors)
	o.All, o.DocTokens, o.Workers = c.Bool(flagAll), c.Bool(flagDocTokens), c.Int(flagWorkers)
	o.Hubs = c.Bool(flagHubs)
	o.MaxHold = c.Duration(flagMaxHold)
	if d.Window < 0 && !c.IsSet(flagMaxHold) {
		o.MaxHold = 0 // --window all: exact policies unless asked otherwise
	}
	o.Words, err = topicWords(c)
	return o, err
}

// topicWords reads the dictionary and stop words of --topic (none without).
func topicWords(c *ucli.Context) (kb.Words, error) {
	path := c.String(cli.FlagTopic)
	if path == "" {
		return kb.Words{}, nil
	}
	p, err := topic.Load(path)
	if err != nil {
		return kb.Words{}, &cli.UsageError{Err: err}
	}
	return kb.Words{Dictionary: p.Dictionary, Stopwords: p.Stopwords}, nil
}

func runDedupe(c *ucli.Context) error {
	o, err := options(c)
	if err != nil {
		return err
	}
	st, err := dedupe.New(o)
	if err != nil {
		return err
	}
	s, err := cli.OpenStreamWith(c, c.Args().Slice(), os.Stdin, c.App.Writer, c.App.ErrWriter)
	if err != nil {
		st.Close()
		return err
	}
	err = st.Stream(c.Context, s)
	if c.Context.Err() != nil {
		// stdin may still be held by the blocked reader: leave it.
		return errors.Join(err, s.CloseOutput())
	}
	return errors.Join(err, s.Close())
}
