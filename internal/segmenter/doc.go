// Package segmenter turns a fetched page into a doc record: it cleans the
// DOM, decides whether the page is a hub (mostly links) or a topic page
// (mostly content), splits it into blocks the way paper 1 (docs/algorithms.md §2) describes
// (table/div/frame and their modern peers, nested blocks being different
// topics), classifies link blocks by the features of their links
// (TextLen, StopWord, StopAddress, TextSim, SpecialWords), extracts the
// main content, title, published time, source and author, collects every
// link with its anchor, context and block, and tokenizes title and content.
//
// The main content rule combines the paper's (the block with the most text,
// not a side column, merged with similar neighbouring blocks) with text and
// link density evidence: every run of inline text credits its block-level
// ancestors with a score that grows with its length and punctuation, each
// candidate is discounted by its link density and by class/id hints, and
// the best candidate is merged with siblings that score alike. Inside the
// chosen region, navigation, share bars, comment sections and related-link
// lists are pruned by tag, class/id words and link density.
//
// A Segmenter is safe for concurrent use; it never panics on input and
// never hangs: pages deeper than the HTML parser's limit are re-tokenized
// with their nesting capped, and pages over Options.MaxBytes are cut.
package segmenter
