// Command dedupe removes duplicate and near-duplicate docs and writes
// knowledge records: canonical-URL, exact-content and SimHash (or TF-IDF
// Euclidean) duplicates, a persistent index shared by runs, and a SQLite
// knowledge base searchable with `dedupe search`.
package main

import "github.com/focuscrawl/focuscrawl/internal/cli"

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}
