package cli

import (
	"errors"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/suggest"
)

// usageError is the OnUsageError of a command with flags: a flag that is
// not defined gets the nearest one named ("did you mean --proxy?"), as a
// YAML key of a topic profile does.
func usageError(flags []ucli.Flag) ucli.OnUsageErrorFunc {
	return func(_ *ucli.Context, err error, _ bool) error {
		const undefined = "flag provided but not defined: "
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, undefined); ok {
			name = strings.TrimLeft(name, "-")
			var names []string
			for _, f := range append(slicesClone(flags), ucli.HelpFlag) {
				names = append(names, f.Names()...)
			}
			if s := suggest.Closest(name, names); s != "" {
				err = errors.New(msg + "; did you mean " + dashes(s) + "?")
			}
		}
		return &UsageError{Err: err}
	}
}

func slicesClone(fs []ucli.Flag) []ucli.Flag { return append([]ucli.Flag(nil), fs...) }
