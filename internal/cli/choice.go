package cli

import (
	"fmt"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// Choice is a flag with a fixed set of values, written the same way in
// every command (docs/cli.md). Old spellings, from before the vocabulary
// was made one, still work with a warning, so that scripts keep running.
type Choice struct {
	Flag   string
	Values []string
	// Deprecated maps an old spelling to the current one.
	Deprecated map[string]string
}

// Value reads the flag: one of Values, an old spelling turned into its
// current one (with a warning on stderr), or a usage error listing the
// values.
func (ch Choice) Value(c *ucli.Context) (string, error) {
	v := strings.TrimSpace(c.String(ch.Flag))
	if slices.Contains(ch.Values, v) {
		return v, nil
	}
	if now, ok := ch.Deprecated[v]; ok {
		fmt.Fprintf(c.App.ErrWriter, "%s: --%s %s is deprecated: write --%s %s (same meaning)\n", commandName(c), ch.Flag, v, ch.Flag, now)
		return now, nil
	}
	return "", Usagef("--%s: %q is not %s", ch.Flag, v, orList(ch.Values))
}

// orList writes "a, b or c".
func orList(vs []string) string {
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// The values shared across commands (docs/cli.md).
const (
	ScopeHost = "host" // the exact host name
	ScopeSite = "site" // the registrable domain (public suffix + 1), the "site" of records
	ScopeAny  = "any"  // no limit

	RulesOnContent = "content" // the title and main text, as segment extracted them
	RulesOnPage    = "page"    // all visible text of the page but ads
	RulesOnHTML    = "html"    // the text and also the raw HTML
)

// commandName is the program and subcommand that c runs: "dedupe search".
func commandName(c *ucli.Context) string {
	if c.Command != nil && c.Command.HelpName != "" {
		return c.Command.HelpName
	}
	return c.App.Name
}
