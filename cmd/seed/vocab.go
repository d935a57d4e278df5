package main

import (
	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/frontier"
)

// The --scope values of seed urls and seed add, in the words of every
// command (docs/cli.md): site is the registrable domain, as in verify and
// in the "site" of records; "domain" was seed's old word for it.
var (
	urlsScope = cli.Choice{Flag: urlsFlagScope, Values: []string{cli.ScopeSite, cli.ScopeHost},
		Deprecated: map[string]string{"domain": cli.ScopeSite}}
	addScope = cli.Choice{Flag: flagScope, Values: []string{cli.ScopeHost, cli.ScopeSite, cli.ScopeAny},
		Deprecated: map[string]string{"domain": cli.ScopeSite}}
	// addPruned: what seed add does with the links score pruned.
	addPruned = cli.Choice{Flag: flagPruned, Values: frontier.PrunedLinksValues}
)

// frontierScope is the frontier's name of a --scope value.
func frontierScope(v string) frontier.Scope {
	switch v {
	case cli.ScopeHost:
		return frontier.ScopeHost
	case cli.ScopeSite:
		return frontier.ScopeDomain
	}
	return frontier.ScopeAny
}
