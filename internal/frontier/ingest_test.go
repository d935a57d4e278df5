package frontier

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// The partial records the Ingester decodes must read keys the records
// have, with the same types.
func TestIngestFieldsOf(t *testing.T) {
	if err := record.FieldsOf(returning{}, record.Page{}, record.Doc{}, record.ScoredDoc{}); err != nil {
		t.Error(err)
	}
	if err := record.FieldsOf(ingestLink{}, record.Link{}, record.ScoredLink{}); err != nil {
		t.Error(err)
	}
}

// ingest parses lines with in and applies them to a fresh SQLite store in
// one batch, as seed add does.
func ingest(t *testing.T, in *Ingester, lines ...string) (*SQLiteStore, Batch, Applied) {
	t.Helper()
	s, _ := openTest(t)
	var b Batch
	for _, l := range lines {
		part, err := in.Parse([]byte(l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		b.Merge(part)
	}
	res, err := s.Apply(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	return s, b, res
}

func TestIngesterURLRecords(t *testing.T) {
	in := NewIngester(IngestOptions{SeedPriority: 0.7, Policy: Policy{Scope: ScopeAny, MaxDepth: 2,
		Deny: []*regexp.Regexp{regexp.MustCompile(`/private/`)}}})
	s, b, res := ingest(t, in,
		"HTTP://A.Example/x?sid=0123456789abcdef0123456789abcdef&q=1",
		`{"url":"http://b.example/","priority":0.2,"depth":1}`,
		`{"url":"http://c.example/deep","depth":3}`,
		`{"url":"http://c.example/private/p"}`,
		`{"url":"http://d.example/","status":0,"error":"timeout"}`,
	)
	if res.Queued != 2 || res.Done != 1 {
		t.Errorf("applied %+v", res)
	}
	if b.Refused[GuardMaxDepth] != 1 || b.Refused[GuardDeny] != 1 {
		t.Errorf("refused %v", b.Refused)
	}
	us, err := s.Lease(context.Background(), LeaseRequest{N: 10, For: 1e9, Owner: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, u := range us {
		got[u.URL] = u.Priority
	}
	if len(got) != 2 || got["http://a.example/x?q=1"] != 0.7 || got["http://b.example/"] != 0.2 {
		t.Errorf("leased %v: want the session id stripped, the seed priority for the record without one", got)
	}
}

// TestIngesterReturningRecords: a scored record's outcome and links, and
// a doc's; the link score pruned goes to the reserve (the default), to the
// queue (PrunedQueue) or nowhere, counted as refused (PrunedDrop).
func TestIngesterReturningRecords(t *testing.T) {
	for _, mode := range []PrunedLinks{PrunedReserve, PrunedQueue, PrunedDrop} {
		t.Run(mode.String(), func(t *testing.T) {
			in := NewIngester(IngestOptions{LinkPriority: 0.4, Graph: true, Policy: Policy{Scope: ScopeHost}, Pruned: mode})
			_, b, res := ingest(t, in,
				`{"url":"http://a.example/p","final_url":"http://a.example/q","status":200,"depth":1,"score":0.9,"relevant":true,"links":[`+
					`{"url":"http://a.example/1","priority":0.8,"anchor":"one"},`+
					`{"url":"http://b.example/2","priority":0.8},`+
					`{"url":"http://a.example/3","priority":0.1,"pruned":true},`+
					`{"url":"http://a.example/4","nofollow":true},`+
					`{"url":"::bad"}]}`,
				`{"url":"http://a.example/d","status":200,"tokens":["x"],"links":[{"url":"http://a.example/5","priority":0.9}]}`,
			)
			if len(b.Done) != 2 || !b.Done[0].Scored || b.Done[0].Score != 0.9 || b.Done[0].FinalURL != "http://a.example/q" || b.Done[1].Scored {
				t.Errorf("outcomes %+v", b.Done)
			}
			queue := map[string]Entry{}
			for _, e := range b.Queue {
				queue[e.URL] = e
			}
			one, doc := queue["http://a.example/1"], queue["http://a.example/5"]
			if one.Priority != 0.8 || one.Depth != 2 || one.Parent != "http://a.example/p" || one.Reserve || doc.Priority != 0.4 || doc.Reserve {
				t.Errorf("queue %+v: want the scored link's priority, --link-priority for the doc's", b.Queue)
			}
			pruned, kept := queue["http://a.example/3"]
			wantQueued, wantEdges, wantReserved := 3, 3, 0
			switch mode {
			case PrunedReserve:
				wantReserved = 1
				if !kept || !pruned.Reserve || pruned.Priority != 0.1 {
					t.Errorf("the pruned link: %+v, want it in the reserve with its priority", pruned)
				}
			case PrunedQueue:
				if !kept || pruned.Reserve {
					t.Errorf("the pruned link: %+v, want it queued", pruned)
				}
			case PrunedDrop:
				wantQueued, wantEdges = 2, 2
				if kept || b.Refused[GuardPruned] != 1 {
					t.Errorf("the pruned link kept (%v) or not refused %v", kept, b.Refused)
				}
			}
			if len(b.Queue) != wantQueued || len(b.Edges) != wantEdges || b.Edges[0].Anchor != "one" {
				t.Errorf("queue %+v, edges %+v", b.Queue, b.Edges)
			}
			for _, g := range []string{GuardNofollow, GuardInvalidURL, GuardScope} {
				if b.Refused[g] != 1 {
					t.Errorf("refused %v: want one %s", b.Refused, g)
				}
			}
			if res.Done != 2 || res.Queued != wantQueued || res.Reserved != wantReserved {
				t.Errorf("applied %+v", res)
			}
		})
	}
}

func TestIngesterRejects(t *testing.T) {
	in := NewIngester(IngestOptions{})
	for line, want := range map[string]string{
		`{"url":"http://a.example/","status":200,"depth":"x"}`: "depth",
		`{"status":200}`: `missing "url" field`,
		`{"url":"http://a.example/","blocks":[],"kind":"x","fingerprint":"ab"}`: "seed add takes",
		"# a comment":   jsonl.ErrComment.Error(),
		`{"url":"::x"}`: `url "::x"`,
	} {
		_, err := in.Parse([]byte(line))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", line, err, want)
		}
	}
	if _, err := in.Parse([]byte("# c")); !errors.Is(err, jsonl.ErrComment) {
		t.Errorf("comment: %v", err)
	}
}

// sniff must agree with record.Sniff on every kind.
func TestSniffAgrees(t *testing.T) {
	for _, line := range []string{
		`{"url":"http://a/"}`,
		`{"url":"http://a/","depth":2,"priority":0.5,"meta":{"status":"x"}}`,
		`{"url":"http://a/","status":200,"html":"<p>"}`,
		`{"url":"http://a/","status":0,"error":"timeout"}`,
		`{"url":"http://a/","tokens":["a"]}`,
		`{"url":"http://a/","page_type":"hub"}`,
		`{"url":"http://a/","score":0.5,"relevant":true}`,
		`{"url":"http://a/","kind":"links","path":"body"}`,
		`{"site":"a","pages_fetched":3,"relevant":false}`,
		`{"url":"http://a/","fingerprint":"ab"}`,
		`{"url":"http://a/","\u0073tatus":200}`,
	} {
		want, _ := record.Sniff([]byte(line))
		if got := sniff([]byte(line)); got != want {
			t.Errorf("sniff(%s) = %s, record.Sniff says %s", line, got, want)
		}
	}
}

// TestIngesterSettlesWhatCameBack: every record that comes back for a
// leased URL settles it, whatever fields the stage that wrote it kept:
// segment's error record (no status), a custom scorer's record with a
// score and no relevant, one with a title only. A plain url record of a
// leased URL (a seed list added again) leaves its lease alone.
func TestIngesterSettlesWhatCameBack(t *testing.T) {
	ctx := context.Background()
	in := NewIngester(IngestOptions{SeedPriority: 0.5, Policy: Policy{Scope: ScopeAny}})
	urls := []string{"http://a.example/1", "http://a.example/2", "http://b.example/3", "http://c.example/4", "http://d.example/5"}
	s, _, _ := ingest(t, in, urls...)
	leased, err := s.Lease(ctx, LeaseRequest{N: 10, For: 1e12, Owner: 1})
	if err != nil || len(leased) != len(urls) {
		t.Fatalf("leased %d of %d: %v", len(leased), len(urls), err)
	}
	var b Batch
	for _, l := range []string{
		`{"url":"http://a.example/1","error":"http 404","depth":0,"meta":{"k":1}}`,
		`{"url":"http://a.example/2","score":0.9,"links":[{"url":"http://a.example/6","priority":0.8}]}`,
		`{"url":"http://b.example/3","title":"t"}`,
		`{"url":"http://c.example/4","error":"segment: broken"}`,
		`{"url":"http://d.example/5","depth":0}`,
	} {
		part, err := in.Parse([]byte(l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		b.Merge(part)
	}
	if _, err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx, StatsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if st.States["leased"] != 1 || st.Fetched != 4 || st.Relevant != 0 {
		t.Errorf("states %v, fetched %d, relevant %d: want the 4 records that came back settled, d.example/5 still leased", st.States, st.Fetched, st.Relevant)
	}
	if st.States["queued"] != 1 {
		t.Errorf("states %v: want the scored record's link queued", st.States)
	}
}

// TestIngesterBoundsLinks: a record with more than MaxPageLinks links
// queues the first MaxPageLinks and counts the rest under GuardMaxLinks,
// without decoding them; a record under the bound loses none.
func TestIngesterBoundsLinks(t *testing.T) {
	page := func(n int) string {
		var sb strings.Builder
		sb.WriteString(`{"url":"http://big.example/","status":200,"links":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"url":"http://big.example/p%d"}`, i)
		}
		sb.WriteString(`]}`)
		return sb.String()
	}
	in := NewIngester(IngestOptions{})
	for _, tc := range []struct{ links, queued, dropped int }{
		{MaxPageLinks + 2500, MaxPageLinks, 2500},
		{MaxPageLinks, MaxPageLinks, 0},
		{3, 3, 0},
	} {
		b, err := in.Parse([]byte(page(tc.links)))
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Queue) != tc.queued || b.Refused[GuardMaxLinks] != int64(tc.dropped) {
			t.Errorf("%d links: %d queued, %d refused as %s; want %d and %d",
				tc.links, len(b.Queue), b.Refused[GuardMaxLinks], GuardMaxLinks, tc.queued, tc.dropped)
		}
		if tc.dropped > 0 && b.Queue[len(b.Queue)-1].URL != fmt.Sprintf("http://big.example/p%d", MaxPageLinks-1) {
			t.Errorf("the links kept are not the first ones: last %s", b.Queue[len(b.Queue)-1].URL)
		}
	}
}
