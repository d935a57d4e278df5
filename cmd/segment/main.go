// Command segment turns page records into doc records: title, metadata,
// page type, blocks, main content, links and tokens (docs/segment.md).
package main

import (
	"github.com/focuscrawl/focuscrawl/internal/cli"
)

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}
