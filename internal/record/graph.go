package record

// Edge and Replay are not JSON Lines kinds: they are what the frontier
// store hands score in process (score --db), kept here so that neither
// package imports the other.

// Edge is one link from a crawled page, as the frontier store records it
// and score's graph strategies (ipagerank, linkmodel) walk it.
type Edge struct {
	From, To string
	Anchor   string
	Context  string
}

// Replay is a page crawled before this run, as the frontier recorded it:
// the link that led to it and its page score. score's learned strategy
// trains on them when a crawl resumes.
type Replay struct {
	URL, Parent, Anchor, Context string
	ParentScore, Score           float64
	Failed                       bool
}
