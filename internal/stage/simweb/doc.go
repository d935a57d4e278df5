// Package simweb runs the subcommands of cmd/simweb from Go, without their
// command line: the simulated web's truth, seeds, sites, pages and server
// (Truth, Seeds, Sites, Get, Serve), the evaluation of a crawl against its
// truth (Eval), and the same for a mirror of real sites (MirrorTruth,
// MirrorEval, MirrorServe). The command parses its flags into the Options
// of these functions; the webs themselves are internal/simweb and
// internal/mirrorweb.
//
// A function that reads or writes lines comes in two forms: X(ctx, in,
// out, o) on plain readers and writers, and XStream(ctx, s, o) on a
// cli.Stream the command opened (-o, --rejects, the log), which it closes.
package simweb
