package record

import "time"

// Label is the user's judgement of one page: seed report's labelling
// section exports them, score train --labels learns from them. Only URL
// and Relevant are the contract; the other fields are informative, and
// readers ignore fields they do not know, so a user may add their own.
type Label struct {
	// URL is the url of the page's doc (its url field, not its
	// final_url), as the crawl's archive holds it.
	URL string `json:"url"`
	// Relevant is the user's verdict: the page is of the topic or not.
	Relevant bool `json:"relevant"`
	// Title is the page's title when it was labelled, to read the file by.
	Title string `json:"title,omitempty"`
	// LabelledAt is when the label was last set.
	LabelledAt time.Time `json:"labelled_at,omitzero"`
}
