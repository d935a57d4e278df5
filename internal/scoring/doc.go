// Package scoring judges pages against a topic and ranks the links they
// hold: the score stage of focuscrawl.
//
// Page methods (docs/algorithms.md §1, §3, §5): vsm (TF-IDF cosine against the
// topic vector), pearson (Pearson correlation of the TF-IDF vectors, seed
// 004), rules (F(P,R) of seed 000) and combo (their weighted mean). vsm and
// pearson add the weighted share of the profile's keywords the page holds,
// so that raising a keyword's weight never lowers the score of a page that
// contains it (a pure cosine against a keyword-weighted vector can fall).
//
// Link strategies give every link a priority in [0,1]: bfs and best-first
// (baselines), shark (Hersovici's Shark-Search), block-shark (seed 001 as
// reconstructed in docs/algorithms.md §2), heuristic (UH, TeH, TiH and RW of
// seed 002), ipagerank (seed 002) and linkmodel (seed 003). The first five
// score each doc as it arrives; ipagerank and linkmodel need a graph, from
// a whole batch of docs or from the crawl frontier (Store).
package scoring
