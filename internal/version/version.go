// Package version holds the version every focuscrawl command reports and
// puts in its User-Agent and WARC headers. It has no dependencies, so any
// layer may import it without pulling in the command-line layer.
package version

// Version is the focuscrawl release version.
const Version = "0.1.0"
