//go:build race

package simweb

// raceEnabled skips the tests that render tens of thousands of pages: the
// race detector makes them ten times slower and they start no goroutines.
const raceEnabled = true
