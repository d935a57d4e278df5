// Package readme holds the test that runs the command blocks of the
// repository's README.md, so that its examples keep working as written.
// Another checks the README's first screen: make demo and make test, the
// first crawl and where to go next, and no measured figure among the
// instructions (those are in docs/benchmarks.md).
//
// A block fenced as ```sh is run; ```sh no-run (reason) is one that cannot
// run offline (the real web, a search engine) or that make itself runs, and
// says why. In a block whose lines start with "$ ", each such line is a
// command and the lines up to the next one are its expected output.
package readme
