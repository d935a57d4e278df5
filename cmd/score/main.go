// Command score judges doc records against a topic profile and ranks their
// links: page relevance (vsm, pearson, rules, combo) and link priorities
// (the strategies of internal/scoring's registry: bfs, shark, ipagerank, …).
// `score idf build` makes the IDF table it weighs terms with.
package main

import "github.com/focuscrawl/focuscrawl/internal/cli"

//go:generate go test -run ^TestHelpPages$ -update-help .
//go:generate go test -run ^TestDocsStrategies$ -update .

func main() {
	cli.Main(newApp())
}
