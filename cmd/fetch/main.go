// Command fetch turns url records (or plain URL lines) into page records:
// a polite, concurrent HTTP fetcher whose HTML output is always UTF-8.
package main

import "github.com/focuscrawl/focuscrawl/internal/cli"

//go:generate go test -run ^TestHelpPages$ -update-help .

func main() {
	cli.Main(newApp())
}
