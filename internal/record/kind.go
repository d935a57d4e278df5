package record

import "encoding/json"

// Kind names a record kind on the wire.
type Kind string

// The record kinds.
const (
	KindURL       Kind = "url"
	KindPage      Kind = "page"
	KindDoc       Kind = "doc"
	KindBlock     Kind = "block"
	KindScoredDoc Kind = "scored"
	KindVerdict   Kind = "verdict"
	KindKnowledge Kind = "knowledge"
)

// probe holds just enough of any record to tell its kind.
type probe struct {
	URL      *string          `json:"url"`
	Site     *string          `json:"site"`
	Status   *int             `json:"status"`
	HTML     *json.RawMessage `json:"html"`
	Score    *float64         `json:"score"`
	Relevant *bool            `json:"relevant"`
	Tokens   *json.RawMessage `json:"tokens"`
	Blocks   *json.RawMessage `json:"blocks"`
	PageType *string          `json:"page_type"`
	Content  *json.RawMessage `json:"content"`
	Kind     *string          `json:"kind"`
	Path     *string          `json:"path"`
	Pages    *int             `json:"pages_fetched"`
	Finger   *string          `json:"fingerprint"`
}

// Sniff tells the kind of a JSON record by the fields it carries, for
// stages such as seed add that accept several kinds. It reports ok=false
// when the line is not a JSON object.
func Sniff(line []byte) (k Kind, ok bool) {
	var p probe
	if err := json.Unmarshal(line, &p); err != nil {
		return "", false
	}
	return KindByFields(func(name string) bool {
		switch name {
		case "pages_fetched":
			return p.Pages != nil
		case "site":
			return p.Site != nil
		case "fingerprint":
			return p.Finger != nil
		case "score":
			return p.Score != nil
		case "relevant":
			return p.Relevant != nil
		case "kind":
			return p.Kind != nil
		case "path":
			return p.Path != nil
		case "tokens":
			return p.Tokens != nil
		case "blocks":
			return p.Blocks != nil
		case "page_type":
			return p.PageType != nil
		case "html":
			return p.HTML != nil
		case "status":
			return p.Status != nil
		case "content":
			return p.Content != nil
		}
		return false
	}), true
}

// KindByFields tells a record's kind by which of its top-level fields it
// has: the one rule of Sniff, for readers that find the fields otherwise.
func KindByFields(has func(name string) bool) Kind {
	switch {
	case has("pages_fetched") && has("site"):
		return KindVerdict
	case has("fingerprint"):
		return KindKnowledge
	case has("score") && has("relevant"):
		return KindScoredDoc
	case has("kind") && has("path"):
		return KindBlock
	case has("tokens") || has("blocks") || has("page_type"):
		return KindDoc
	case has("html") || has("status"):
		return KindPage
	case has("content"):
		return KindDoc
	default:
		return KindURL
	}
}

// Describe names a kind for a message: what it is and which stage writes it.
func (k Kind) Describe() string {
	switch k {
	case KindURL:
		return "a url record (seed next's or seed urls' output)"
	case KindPage:
		return "a page record (fetch's output)"
	case KindDoc:
		return "a doc record (segment's output)"
	case KindBlock:
		return "a block record (segment --blocks' output)"
	case KindScoredDoc:
		return "a scored doc (score's output)"
	case KindVerdict:
		return "a verdict record (verify's output)"
	case KindKnowledge:
		return "a knowledge record (dedupe's output)"
	}
	return "a " + string(k) + " record"
}
