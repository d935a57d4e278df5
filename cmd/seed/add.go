package main

import (
	"errors"
	"fmt"
	"regexp"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/stage/seed"
	"github.com/focuscrawl/focuscrawl/internal/topic"
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
	flagPruned         = "pruned"
	flagKeepPruned     = "keep-pruned" // the old spelling of --pruned queue
	flagFollowNofollow = "follow-nofollow"
	flagNoGraph        = "no-graph"
	flagKeepSessionIDs = "keep-session-ids"
	flagArchive        = "archive"
	flagArchiveFree    = "archive-next-free"
)

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
			&ucli.StringFlag{Name: flagScope, Value: cli.ScopeAny, Usage: "links may lead to: host (the page's host), site (its registrable domain), any"},
			&ucli.StringFlag{Name: flagHostsFromTopic, Usage: "admit only the hosts of the address library of topic `FILE`"},
			&ucli.IntFlag{Name: flagMaxDepth, Usage: "refuse URLs more than `N` links from a seed (0: no limit)"},
			&ucli.StringSliceFlag{Name: flagAllow, Usage: "admit only URLs matching one of these `REGEXP`s (repeatable)"},
			&ucli.StringSliceFlag{Name: flagDeny, Usage: "refuse URLs matching any of these `REGEXP`s (repeatable)"},
			&ucli.Int64Flag{Name: flagMaxPerHost, Value: 100000, Usage: "trap guard: at most `N` URLs per host (0: no limit)"},
			&ucli.IntFlag{Name: flagMaxPathDepth, Value: 16, Usage: "trap guard: at most `N` path segments (0: no limit)"},
			&ucli.IntFlag{Name: flagMaxRepeat, Value: 2, Usage: "trap guard: one path segment at most `N` times (0: no limit)"},
			&ucli.IntFlag{Name: flagMaxQuery, Value: 8, Usage: "trap guard: at most `N` query parameters (0: no limit)"},
			&ucli.IntFlag{Name: flagMaxURLLength, Value: 2048, Usage: "trap guard: at most `N` bytes per URL (0: no limit)"},
			&ucli.Float64Flag{Name: flagSeedPriority, Value: 1, Usage: "priority of url records that carry none"},
			&ucli.Float64Flag{Name: flagLinkPriority, Value: 0.5, Usage: "priority of the links of unscored doc records"},
			&ucli.StringFlag{Name: flagPruned, Value: frontier.PrunedReserve.String(), Usage: "links score marked pruned (under thresholds.link): " +
				"reserve (queue them under every other URL: seed next leases them when nothing else is left), queue (like any link), drop (refuse them)"},
			&ucli.BoolFlag{Name: flagKeepPruned, Usage: "deprecated: --pruned queue (--keep-pruned=false: --pruned drop)"},
			&ucli.BoolFlag{Name: flagFollowNofollow, Usage: "queue rel=nofollow links too"},
			&ucli.BoolFlag{Name: flagNoGraph, Usage: "do not keep the link graph (edges table)"},
			&ucli.BoolFlag{Name: flagKeepSessionIDs, Usage: "keep session ids (sid=, PHPSESSID=, ;jsessionid= …) in URLs instead of stripping them (a trap: every page hands out new ones)"},
		}, append(append(retryFlags(), sinkFlags()...),
			// In place of a tee and a compressor in the crawl loop: one
			// stage fewer to die, and frames that end at each batch, so a
			// kill costs at most the last frame, which readers skip.
			&ucli.StringFlag{Name: flagArchive, Usage: "append every accepted input record to `FILE` before recording it " +
				"(.zst/.gz compress, one frame per batch); one writer per FILE (a lock)"},
			&ucli.BoolFlag{Name: flagArchiveFree, Usage: "when another process is appending to the --archive FILE, append to the first free of " +
				"FILE-2, FILE-3 … (before the extension) instead of failing"})...),
		Action: runAdd,
	}
}

func runAdd(c *ucli.Context) error {
	o, err := addOptions(c)
	if err != nil {
		return err
	}
	if path := c.String(flagArchive); path != "" {
		log := cli.NewLogger(c.App.Name, c.App.ErrWriter, false)
		used := path
		if c.Bool(flagArchiveFree) {
			if o.Archive, used, err = jsonl.AppendFree(path); err == nil && used != path {
				log.Infof("another process is appending to the archive %s: appending to %s", path, used)
			}
		} else {
			o.Archive, err = jsonl.Append(path)
		}
		if err != nil {
			return fmt.Errorf("--%s: %w", flagArchive, err)
		}
		if r := o.Archive.Repaired(); r != nil {
			log.Infof("the archive %s: %v", used, r)
		}
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
	sum, err := seed.AddStream(c.Context, st, store, o)
	st.Log.Infof("%s", sum)
	var archErr error
	if o.Archive != nil {
		if archErr = o.Archive.Close(); archErr != nil {
			archErr = fmt.Errorf("archive: %w", archErr)
		}
	}
	return errors.Join(err, archErr, st.Close())
}

// addOptions reads the flags of seed add.
func addOptions(c *ucli.Context) (seed.AddOptions, error) {
	scopeValue, err := addScope.Value(c)
	if err != nil {
		return seed.AddOptions{}, err
	}
	o := seed.AddOptions{MaxPerHost: c.Int64(flagMaxPerHost), Ingest: frontier.IngestOptions{
		SeedPriority: c.Float64(flagSeedPriority), LinkPriority: c.Float64(flagLinkPriority),
		FollowNofollow: c.Bool(flagFollowNofollow), Graph: !c.Bool(flagNoGraph), KeepSessionIDs: c.Bool(flagKeepSessionIDs),
		Policy: frontier.Policy{
			Scope: frontierScope(scopeValue), MaxDepth: c.Int(flagMaxDepth), MaxPathDepth: c.Int(flagMaxPathDepth),
			MaxRepeat: c.Int(flagMaxRepeat), MaxQueryParams: c.Int(flagMaxQuery), MaxURLLength: c.Int(flagMaxURLLength),
		},
	}}
	if o.Ingest.Pruned, err = prunedLinks(c); err != nil {
		return o, err
	}
	pol := &o.Ingest.Policy
	for _, f := range []struct {
		name string
		dst  *[]*regexp.Regexp
	}{{flagAllow, &pol.Allow}, {flagDeny, &pol.Deny}} {
		for _, expr := range c.StringSlice(f.name) {
			re, err := regexp.Compile(expr)
			if err != nil {
				return o, cli.Usagef("--%s %q: %v", f.name, expr, err)
			}
			*f.dst = append(*f.dst, re)
		}
	}
	if o.Retry, err = retryPolicy(c); err != nil {
		return o, err
	}
	for _, f := range []string{flagSeedPriority, flagLinkPriority} {
		if v := c.Float64(f); v < 0 || v > 1 {
			return o, cli.Usagef("--%s %v: a priority is in [0,1]", f, v)
		}
	}
	if path := c.String(flagHostsFromTopic); path != "" {
		p, err := topic.Load(path)
		if err != nil {
			return o, cli.Usagef("--%s: %w", flagHostsFromTopic, err)
		}
		if len(p.Hosts) == 0 {
			return o, cli.Usagef("--%s %s: the profile has no hosts (its address library is empty)", flagHostsFromTopic, path)
		}
		pol.InLibrary = func(h string) bool {
			for _, e := range p.Hosts {
				if e.Match(h) {
					return true
				}
			}
			return false
		}
	}
	return o, nil
}

// prunedLinks reads --pruned, or its old spelling --keep-pruned.
func prunedLinks(c *ucli.Context) (frontier.PrunedLinks, error) {
	v, err := addPruned.Value(c)
	if err != nil {
		return 0, err
	}
	p, err := frontier.ParsePrunedLinks(v)
	if err != nil {
		return 0, cli.Usagef("--%s: %v", flagPruned, err)
	}
	if !c.IsSet(flagKeepPruned) {
		return p, nil
	}
	old := frontier.PrunedDrop
	if c.Bool(flagKeepPruned) {
		old = frontier.PrunedQueue
	}
	if c.IsSet(flagPruned) && p != old {
		return 0, cli.Usagef("--%s=%v says --%s %s, but --%s says %s", flagKeepPruned, c.Bool(flagKeepPruned), flagPruned, old, flagPruned, p)
	}
	fmt.Fprintf(c.App.ErrWriter, "%s: --%s=%v is deprecated: write --%s %s (same meaning)\n", c.App.Name, flagKeepPruned, c.Bool(flagKeepPruned), flagPruned, old)
	return old, nil
}
