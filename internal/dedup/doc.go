// Package dedup removes duplicate and near-duplicate documents from a
// stream, the de-duplication step of paper 4 (docs/algorithms.md §5).
//
// Three keys find duplicates: the canonical URL (the normalised URL, final
// URL and <link rel=canonical> of a doc), an exact hash of the content
// with white space collapsed, and a 64-bit SimHash (Charikar 2002) of the
// content's weighted token shingles. Near-duplicates are fingerprints at
// Hamming distance ≤ k, found through the multi-table permuted index of
// Manku, Jain and Das Sarma (WWW 2007): the 64 bits are cut into blocks and
// every table is keyed on a few of them, so by the pigeonhole principle a
// fingerprint within distance k shares a whole key with its neighbour in
// at least one table and a lookup only visits the matching buckets, never
// the whole index. The paper's own test, the Euclidean distance of
// unit-length TF-IDF vectors under a threshold, is available as a second
// method and is evaluated only on the SimHash index's candidates.
//
// Before fingerprinting, traditional Chinese characters are folded to
// their simplified forms (a table of common characters, text.Fold), so the two
// scripts of one article fingerprint alike.
//
// A Deduper makes the decisions over a stream in arrival order, holding
// each group of copies for a bounded window so the keep policy (first,
// longest, best-score, newest) can pick the best copy; an IndexFile keeps
// the groups across runs, locked so two runs never write one index.
package dedup
