package simweb

import (
	"context"
	"io"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/mirrorweb"
)

// MirrorOptions choose a mirror of real sites; serve and truth take the
// same, so both see the same web.
type MirrorOptions struct {
	SourceFiles []string      // files listing sources, one a line (--sources)
	Sources     []string      // HOST=DIR or WARC paths
	Down        []string      // HOST[=refused|timeout|dns]: hosts that do not answer
	DownDelay   time.Duration // how long a host that times out keeps a request
	AutoIndex   bool          // list directories that have no index.html
}

// NewMirror opens the mirror o describes; bad values are usage errors that
// name simweb mirror's flags.
func NewMirror(o MirrorOptions) (*mirrorweb.Web, error) {
	var sources []mirrorweb.Source
	for _, f := range o.SourceFiles {
		s, err := mirrorweb.ReadSources(f)
		if err != nil {
			return nil, cli.Usagef("--sources: %v", err)
		}
		sources = append(sources, s...)
	}
	for _, a := range o.Sources {
		s, err := mirrorweb.ParseSource(a, "")
		if err != nil {
			return nil, cli.Usagef("%v", err)
		}
		sources = append(sources, s)
	}
	if len(sources) == 0 {
		return nil, cli.Usagef("no sources: give HOST=DIR or WARC files, or --sources FILE")
	}
	opts := mirrorweb.Options{DownDelay: o.DownDelay, AutoIndex: o.AutoIndex, Down: map[string]mirrorweb.Down{}}
	for _, d := range o.Down {
		h, kind, err := mirrorweb.ParseDown(d)
		if err != nil {
			return nil, cli.Usagef("--down: %v", err)
		}
		opts.Down[h] = kind
	}
	return mirrorweb.New(sources, opts)
}

// ReadRules reads the truth rules of mirror truth's --rules ("": none).
func ReadRules(path string) (*mirrorweb.Rules, error) {
	if path == "" {
		return nil, nil
	}
	r, err := mirrorweb.ReadRules(path)
	if err != nil {
		return nil, cli.Usagef("--rules: %v", err)
	}
	return r, nil
}

// MirrorTruthOptions say what simweb mirror truth walks.
type MirrorTruthOptions struct {
	Web     *mirrorweb.Web
	Portals []string         // URLs the crawl starts from
	Rules   *mirrorweb.Rules // the topics' rules (nil: none)
}

// MirrorTruth walks the mirror from its portals (in process, obeying
// robots.txt), then every page no portal leads to, and writes its truth to
// out: a header line and one node per URL, the input of MirrorEval.
func MirrorTruth(ctx context.Context, out io.Writer, o MirrorTruthOptions) error {
	return MirrorTruthStream(ctx, cli.NewStream(nil, out, nil), o)
}

// MirrorTruthStream is MirrorTruth on an open stream, which it closes; it
// logs the counts of URLs, reachable ones and relevant ones per topic.
func MirrorTruthStream(ctx context.Context, st *cli.Stream, o MirrorTruthOptions) error {
	g, err := o.Web.Build(ctx, o.Portals, o.Rules)
	if err != nil {
		st.Close()
		return err
	}
	reach, rel := 0, map[string][2]int{}
	for _, n := range g.Nodes {
		if n.Reachable() {
			reach++
		}
		for _, t := range n.Relevant {
			v := rel[t]
			v[0]++
			if n.Reachable() {
				v[1]++
			}
			rel[t] = v
		}
	}
	st.Log.Infof("%d URLs, %d reachable from the portal", len(g.Nodes), reach)
	for _, t := range g.Topics {
		st.Log.Infof("topic %s: %d relevant URLs, %d of them reachable", t, rel[t][0], rel[t][1])
	}
	return firstErr(g.Records(st.Out.Write), st.Close())
}
