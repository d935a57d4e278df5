package main

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/fetcher/fetchflags"
	"github.com/focuscrawl/focuscrawl/internal/netguard"
)

// flagAllowPrivate is fetch's --allow-private, for the seed commands that
// make requests (sitemap, search): same name, same environment variable.
const flagAllowPrivate = fetchflags.AllowPrivate

func allowPrivateFlag() ucli.Flag {
	return &ucli.BoolFlag{Name: flagAllowPrivate, Usage: "let requests reach loopback, private, link-local and other special addresses (refused by default: links are strangers')"}
}

// netPolicy reads --allow-private.
func netPolicy(c *ucli.Context) netguard.Policy {
	return netguard.Policy{AllowPrivate: c.Bool(flagAllowPrivate)}
}
