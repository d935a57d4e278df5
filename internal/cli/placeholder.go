package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// urfave/cli shows a flag whose usage names no `PLACEHOLDER` as
// "--delay value". Every focuscrawl flag that takes a value shows an upper
// case word instead, by one rule (docs/cli.md): the usage's own
// placeholder if it has one, else DURATION for a duration, N for a whole
// number, X for a real one, and the flag's name for text (--render RENDER).
// The help line also shows only the flag's current environment variable,
// not the old names it still reads (OldEnv).
//
// urfave/cli's hooks for this are package variables: they are set once,
// here, for every command.
func init() {
	base := ucli.FlagStringer
	ucli.FlagStringer = func(f ucli.Flag) string {
		line := base(f)
		head, tail, ok := strings.Cut(line, "\t")
		if !ok {
			return line
		}
		if e, ok := f.(interface{ GetEnvVars() []string }); ok && len(e.GetEnvVars()) > 1 {
			envs := e.GetEnvVars()
			tail = strings.Replace(tail, " [$"+strings.Join(envs, ", $")+"]", " [$"+envs[0]+"]", 1)
		}
		return strings.ReplaceAll(head, " value", " "+Placeholder(f)) + "\t" + tail
	}
}

// Placeholder is the word --help shows after a flag that takes a value
// ("" for one that takes none).
func Placeholder(f ucli.Flag) string {
	df, ok := f.(ucli.DocGenerationFlag)
	if !ok || !df.TakesValue() {
		return ""
	}
	usage := df.GetUsage()
	if i := strings.IndexByte(usage, '`'); i >= 0 {
		if j := strings.IndexByte(usage[i+1:], '`'); j >= 0 {
			return usage[i+1 : i+1+j]
		}
	}
	switch f.(type) {
	case *ucli.DurationFlag:
		return "DURATION"
	case *ucli.IntFlag, *ucli.Int64Flag, *ucli.UintFlag, *ucli.Uint64Flag, *ucli.IntSliceFlag:
		return "N"
	case *ucli.Float64Flag, *ucli.Float64SliceFlag:
		return "X"
	}
	return strings.ToUpper(strings.ReplaceAll(f.Names()[0], "-", "_"))
}
