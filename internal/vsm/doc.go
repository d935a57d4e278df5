// Package vsm is the vector space model shared by score, dedupe and verify:
// IDF tables (built from a corpus, read from a file, or the embedded
// Chinese and English default), sparse TF-IDF vectors, and the measures
// the papers use on them — cosine similarity (VSM), Pearson correlation
// (paper 4's (docs/algorithms.md §5) topic filter) and Euclidean distance (paper 4's duplicate
// test).
//
// A Vector is a sparse vector whose terms are sorted, so every measure is a
// single merge of two vectors, with no maps and no allocation. Unseen
// terms get a smoothed IDF from the table, never zero, so a page made only
// of new words still has a direction.
package vsm
