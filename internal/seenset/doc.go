// Package seenset answers "have I seen this key before?" exactly, for
// streams of tens of millions of keys (the URLs of seed urls), in bounded
// memory.
//
// Keys are kept in memory, in a pointer-free arena with an open-addressing
// hash table, until the memory budget is reached. The set then spills:
// the keys are sorted and written to a run file in a private temporary
// directory, with a sparse index of its blocks and a Bloom filter kept in
// memory, and the in-memory part starts again empty. A lookup checks
// memory, then each run whose Bloom filter says "maybe", reading one block
// of the file; the Bloom filter only saves disk reads and never decides
// membership, so no key is ever reported seen when it was not. When there
// are too many runs they are merged into one.
//
// Beyond the budget, memory grows by about 1.3 bytes per spilled key (the
// Bloom filters at 1% false positives and the block index), not by the
// size of the keys.
package seenset
