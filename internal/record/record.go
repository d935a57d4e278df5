package record

import (
	"encoding/json"
	"time"
)

// Meta is the user's own data attached to a record. Stages never look
// inside it; they copy the raw bytes from input to output unchanged.
type Meta = json.RawMessage

// Lineage is what a URL carries from the frontier through fetch, segment
// and score: how it was reached and how promising it looked then.
type Lineage struct {
	// Depth is the number of links followed from a seed (seeds are 0).
	Depth int `json:"depth"`
	// Priority is the frontier's priority of the URL, in [0,1].
	Priority float64 `json:"priority,omitempty"`
	// Parent is the URL of the page the link was found on.
	Parent string `json:"parent,omitempty"`
	// Anchor is the anchor text of that link.
	Anchor string `json:"anchor,omitempty"`
	// Inherited is the Shark-Search inherited score passed to children.
	Inherited float64 `json:"inherited,omitempty"`
	// Site is the site key (registrable domain, or host with --scope host).
	Site string `json:"site,omitempty"`
}

// URL is a URL to fetch: seed output, fetch input.
type URL struct {
	URL string `json:"url"`
	Lineage
	Error string `json:"error,omitempty"`
	Meta  Meta   `json:"meta,omitempty"`
}

// Page is the result of fetching one URL: fetch output. HTML is always
// valid UTF-8; Charset names the encoding the body was decoded from.
type Page struct {
	URL         string    `json:"url"`
	FinalURL    string    `json:"final_url,omitempty"`
	Status      int       `json:"status"`
	FetchedAt   time.Time `json:"fetched_at"`
	ElapsedMS   int64     `json:"elapsed_ms"`
	ContentType string    `json:"content_type,omitempty"`
	Charset     string    `json:"charset,omitempty"`
	HTML        string    `json:"html,omitempty"`
	Truncated   bool      `json:"truncated,omitempty"`
	Redirects   []string  `json:"redirects,omitempty"`
	// Bytes is the number of body bytes received, before decoding.
	Bytes int64 `json:"bytes,omitempty"`
	// Rendered says HTML is the DOM a headless browser serialised after
	// running the page's scripts (fetch --render); RenderMS is the time
	// rendering took, RenderCut that the page never settled and was taken
	// as it stood at the time cap, RenderRequests the requests its
	// scripts made (each fetched politely, like a page).
	Rendered       bool  `json:"rendered,omitempty"`
	RenderMS       int64 `json:"render_ms,omitempty"`
	RenderCut      bool  `json:"render_cut,omitempty"`
	RenderRequests int   `json:"render_requests,omitempty"`
	Lineage
	Error string `json:"error,omitempty"`
	Meta  Meta   `json:"meta,omitempty"`
}

// Link is one link found on a page.
type Link struct {
	URL    string `json:"url"`
	Anchor string `json:"anchor,omitempty"`
	// Context is the text around the link inside its block (≤ 200 chars).
	Context string `json:"context,omitempty"`
	// Block is the id of the block the link sits in (0: outside any block).
	Block    int      `json:"block"`
	Internal bool     `json:"internal"`
	Nofollow bool     `json:"nofollow,omitempty"`
	Tag      string   `json:"tag,omitempty"`
	Tokens   []string `json:"tokens,omitempty"`
}

// Block kinds, as segment classifies them.
const (
	BlockMain   = "main"
	BlockText   = "text"
	BlockLinks  = "links"
	BlockNav    = "nav"
	BlockAd     = "ad"
	BlockFooter = "footer"
	BlockOther  = "other"
)

// Block is one segment of a page.
type Block struct {
	ID          int     `json:"id"`
	Kind        string  `json:"kind"`
	Path        string  `json:"path"`
	Text        string  `json:"text,omitempty"`
	LinkDensity float64 `json:"link_density"`
	TextDensity float64 `json:"text_density"`
	// LinkCount is how many of the doc's links sit in this block.
	LinkCount int `json:"link_count,omitempty"`
}

// Doc is a segmented page: segment output, score input.
type Doc struct {
	URL         string `json:"url"`
	FinalURL    string `json:"final_url,omitempty"`
	Status      int    `json:"status,omitempty"`
	Title       string `json:"title,omitempty"`
	Lang        string `json:"lang,omitempty"`
	Keywords    string `json:"keywords,omitempty"`
	Description string `json:"description,omitempty"`
	Canonical   string `json:"canonical,omitempty"`
	// PageType is "hub" (mostly links) or "topic" (mostly content).
	PageType  string `json:"page_type,omitempty"`
	Published string `json:"published,omitempty"`
	Source    string `json:"source,omitempty"`
	Author    string `json:"author,omitempty"`
	Content   string `json:"content,omitempty"`
	// Fields holds values extracted by the profile's per-site rules
	// beyond the standard ones.
	Fields map[string]string `json:"fields,omitempty"`
	Blocks []Block           `json:"blocks,omitempty"`
	Links  []Link            `json:"links,omitempty"`
	// LinksDropped counts the links past segment's --max-links, and
	// ContextsDropped the link contexts left out past --max-context-bytes.
	LinksDropped    int      `json:"links_dropped,omitempty"`
	ContextsDropped int      `json:"contexts_dropped,omitempty"`
	Tokens          []string `json:"tokens,omitempty"`
	// HTML is kept only with segment --keep-html.
	HTML string `json:"html,omitempty"`
	Lineage
	Error string `json:"error,omitempty"`
	Meta  Meta   `json:"meta,omitempty"`
}

// BlockRecord is one block of a page, written by segment --emit blocks.
type BlockRecord struct {
	URL string `json:"url"`
	Block
	Links []Link `json:"links,omitempty"`
	Error string `json:"error,omitempty"`
	Meta  Meta   `json:"meta,omitempty"`
}

// ScoredLink is a link with the priority a link strategy gave it.
type ScoredLink struct {
	Link
	Priority float64 `json:"priority"`
	// Pruned marks links under thresholds.link (kept unless --drop-pruned).
	Pruned bool `json:"pruned,omitempty"`
	// Inherited is the Shark-Search inherited score the link passes to
	// its target page (shark and block-shark); seed add copies it into the
	// url record's lineage.
	Inherited float64 `json:"inherited,omitempty"`
}

// ScoredDoc is a doc with its relevance and its links' priorities: score
// output. Its Links field replaces the Doc's on the wire.
type ScoredDoc struct {
	Doc
	Score    float64            `json:"score"`
	Relevant bool               `json:"relevant"`
	Scores   map[string]float64 `json:"scores,omitempty"`
	Links    []ScoredLink       `json:"links,omitempty"`
}

// Evidence is one page that counted for a verdict.
type Evidence struct {
	URL   string  `json:"url"`
	Score float64 `json:"score"`
}

// ClassStat describes one AbstractURL equivalence class of a verified site.
type ClassStat struct {
	AbstractURL string  `json:"abstract_url"`
	Mean        float64 `json:"mean"`
	Expanded    int     `json:"expanded"`
	Queued      int     `json:"queued,omitempty"`
}

// Verdict says whether a whole site belongs to the topic: verify output.
type Verdict struct {
	Site         string      `json:"site"`
	Relevant     bool        `json:"relevant"`
	GoodPages    int         `json:"good_pages"`
	PagesFetched int         `json:"pages_fetched"`
	BestScore    float64     `json:"best_score"`
	Evidence     []Evidence  `json:"evidence,omitempty"`
	Classes      []ClassStat `json:"classes,omitempty"`
	Reason       string      `json:"reason,omitempty"`
	Error        string      `json:"error,omitempty"`
	Meta         Meta        `json:"meta,omitempty"`
}

// Knowledge is one de-duplicated knowledge item: dedupe output.
type Knowledge struct {
	URL         string   `json:"url"`
	Title       string   `json:"title,omitempty"`
	Published   string   `json:"published,omitempty"`
	Source      string   `json:"source,omitempty"`
	Author      string   `json:"author,omitempty"`
	Content     string   `json:"content,omitempty"`
	Score       float64  `json:"score,omitempty"`
	Fingerprint string   `json:"fingerprint,omitempty"`
	Duplicates  []string `json:"duplicates,omitempty"`
	// DuplicateOf is set on records written by dedupe --emit-dups.
	DuplicateOf string `json:"duplicate_of,omitempty"`
	Error       string `json:"error,omitempty"`
	Meta        Meta   `json:"meta,omitempty"`
}
