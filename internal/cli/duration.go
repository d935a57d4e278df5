package cli

import (
	"os"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// secondsValue returns a duration written as a bare number ("5", "0.5")
// with its unit, seconds ("5s"); any other value is returned as it is, for
// time.ParseDuration to read or refuse. `--delay 5` thus means five
// seconds, as it does in sleep and curl, instead of "missing unit".
func secondsValue(v string) string {
	t := strings.TrimSpace(v)
	if f, err := strconv.ParseFloat(t, 64); err == nil && t != "" && !strings.ContainsAny(t, "eEinfINFxX") && f == f {
		return t + "s"
	}
	return v
}

// normalizeValue is the value of flag f as urfave/cli must read it.
func normalizeValue(f ucli.Flag, v string) string {
	if _, ok := f.(*ucli.DurationFlag); ok {
		return secondsValue(v)
	}
	return v
}

// normalizeFlagWord rewrites --name=value when the value needs it.
func normalizeFlagWord(flags []ucli.Flag, w string) string {
	name, value, ok := strings.Cut(strings.TrimLeft(w, "-"), "=")
	if !ok {
		return w
	}
	f := findFlag(flags, name)
	if f == nil {
		return w
	}
	return w[:len(w)-len(value)] + normalizeValue(f, value)
}

// normalizeDurationEnv gives bare numbers in the environment variables of
// the app's duration flags their unit, seconds (FOCUSCRAWL_DELAY=5).
func normalizeDurationEnv(app *ucli.App) {
	var walk func(flags []ucli.Flag, cmds []*ucli.Command)
	walk = func(flags []ucli.Flag, cmds []*ucli.Command) {
		for _, f := range flags {
			if d, ok := f.(*ucli.DurationFlag); ok {
				for _, env := range d.EnvVars {
					if v, set := os.LookupEnv(env); set {
						if n := secondsValue(v); n != v {
							os.Setenv(env, n)
						}
					}
				}
			}
		}
		for _, c := range cmds {
			walk(c.Flags, c.Subcommands)
		}
	}
	walk(app.Flags, app.Commands)
}
