// Command verify decides, site by site, whether the websites behind a
// stream of URLs (seed search output) belong to a topic: paper 0's (docs/algorithms.md §1)
// heuristic site verification, with a breadth-first baseline.
package main

import "github.com/focuscrawl/focuscrawl/internal/cli"

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}
