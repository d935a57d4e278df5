// Package cli holds what every focuscrawl command shares: the common flags
// (-o, --rejects, -q, --progress, --topic, --format), the one rule that
// names every flag's environment variable (FlagEnv), the context cancelled by SIGINT/SIGTERM, the exit codes and the one place
// that maps errors to them, and Stream, the input/output plumbing of a
// JSON Lines stage.
package cli
