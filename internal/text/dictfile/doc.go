// Package dictfile is the compact, precompiled form of a segmentation
// dictionary: a trie over units (single runes, or whole runs of Latin
// letters and digits) laid out breadth-first, so that reading it is one
// linear pass over varints with no insertions and no per-word allocation.
//
// gse spends its start-up building a cedar double-array trie and computing
// every token's path length (2–3 s and ~320 MB for the full zh dictionary);
// the same words and frequencies read from this form in tens of
// milliseconds. The file is written at development time by
// internal/text/gen from gse's own loaded dictionary, so word lists,
// frequencies and path lengths are exactly gse's.
package dictfile
