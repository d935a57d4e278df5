// Package scoring judges pages against a topic and ranks the links they
// hold: the score stage of focuscrawl.
//
// Page methods (docs/algorithms.md §1, §3, §5): vsm (TF-IDF cosine against
// the topic vector), pearson (Pearson correlation of the TF-IDF vectors,
// paper 4), rules (F(P,R) of paper 0) and combo (their weighted mean). vsm and
// pearson add the weighted share of the profile's keywords the page holds,
// so that raising a keyword's weight never lowers the score of a page that
// contains it (a pure cosine against a keyword-weighted vector can fall).
//
// Link strategies give every link a priority in [0,1]: bfs and best-first
// (baselines), shark (Hersovici's Shark-Search), block-shark (paper 1 as
// reconstructed in docs/algorithms.md §2), heuristic (UH, TeH, TiH and RW of
// paper 2), ipagerank and skyreach (paper 2), linkmodel (paper 3) and
// learned (an online model trained on the crawl, alone or after a per-doc
// strategy: "shark+learned"). Each is registered once, by name, in
// strategy.go, with its kind and an options type of its own: per-doc
// strategies score each doc as it arrives; graph strategies (ipagerank,
// linkmodel, skyreach) need a graph, from a whole batch of docs or from
// the crawl frontier (Store). The default is DefaultStrategy.
package scoring
