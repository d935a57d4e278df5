package cli

import (
	"reflect"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// takeRequired takes the Required mark off flags and returns their names,
// adding "(required)" to their help. urfave/cli answers a missing required
// flag by printing the whole help on stdout, which in a pipe becomes the
// next stage's input; checkRequired makes it one line on stderr and exit 2.
func takeRequired(flags []ucli.Flag) []string {
	var names []string
	for _, f := range flags {
		rf, ok := f.(ucli.RequiredFlag)
		if !ok || !rf.IsRequired() {
			continue
		}
		v := reflect.ValueOf(f)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			continue
		}
		req := v.Elem().FieldByName("Required")
		if !req.IsValid() || !req.CanSet() || req.Kind() != reflect.Bool {
			continue // left to urfave/cli
		}
		req.SetBool(false)
		if usage := v.Elem().FieldByName("Usage"); usage.IsValid() && usage.CanSet() && usage.Kind() == reflect.String &&
			!strings.HasSuffix(usage.String(), "(required)") {
			usage.SetString(strings.TrimSpace(usage.String() + " (required)"))
		}
		names = append(names, f.Names()[0])
	}
	return names
}

// checkRequired wraps before so that a missing required flag is a usage
// error: "missing required flag --db".
func checkRequired(names []string, before ucli.BeforeFunc) ucli.BeforeFunc {
	if len(names) == 0 {
		return before
	}
	return func(c *ucli.Context) error {
		var missing []string
		for _, n := range names {
			if !c.IsSet(n) {
				missing = append(missing, dashes(n))
			}
		}
		switch len(missing) {
		case 0:
		case 1:
			return Usagef("missing required flag %s", missing[0])
		default:
			return Usagef("missing required flags %s", strings.Join(missing, ", "))
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}

// dashes writes a flag name as typed: -k, --db.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
