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
	switch {
	case p.Pages != nil && p.Site != nil:
		return KindVerdict, true
	case p.Finger != nil:
		return KindKnowledge, true
	case p.Score != nil && p.Relevant != nil:
		return KindScoredDoc, true
	case p.Kind != nil && p.Path != nil:
		return KindBlock, true
	case p.Tokens != nil || p.Blocks != nil || p.PageType != nil:
		return KindDoc, true
	case p.HTML != nil || p.Status != nil:
		return KindPage, true
	case p.Content != nil:
		return KindDoc, true
	default:
		return KindURL, true
	}
}
