// Command score judges doc records against a topic profile and ranks their
// links: page relevance (vsm, pearson, rules, combo) and link priorities
// (bfs, best-first, shark, block-shark, heuristic, ipagerank, linkmodel).
// `score idf build` makes the IDF table it weighs terms with.
package main

import "github.com/focuscrawl/focuscrawl/internal/cli"

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}
