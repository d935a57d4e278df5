// Package fetchflags is the one place where the fetcher's settings become
// command-line flags: their names, defaults and help texts (their
// environment variables are given by cli.FlagEnv), and the translation of the parsed flags into a
// fetcher.Config with usage errors that name the flag at fault. fetch
// offers every flag; verify offers a subset (Options.Omit) beside its own.
package fetchflags
