package cli

import (
	"fmt"
	"slices"

	ucli "github.com/urfave/cli/v2"
)

// FlagFormat chooses how a command writes its result, in every command
// that can write it more than one way; FlagJSON is short for --format json
// (or jsonl, where the result is a list).
const (
	FlagFormat = "format"
	FlagJSON   = "json"
)

// The values of --format, the same words in every command (docs/cli.md).
const (
	FormatText  = "text"  // for people: a table or a report
	FormatJSON  = "json"  // one JSON object
	FormatJSONL = "jsonl" // JSON Lines: one object per line
	FormatCSV   = "csv"   // a header line, then one row per record
	FormatAuto  = "auto"  // chosen by the command: text on a terminal, …
)

// Formats are all the values --format may take in any command.
var Formats = []string{FormatText, FormatJSON, FormatJSONL, FormatCSV, FormatAuto}

// Format is the --format of one command: the values it takes, the default,
// and what each means there.
type Format struct {
	Values  []string
	Default string
	// Usage says what the values mean for this command; the list of
	// values is written in front of it.
	Usage string
	// Deprecated maps an old value to its current one (table → text).
	Deprecated map[string]string
}

// jsonValue is the value --json stands for: json, or jsonl for a list.
func (f Format) jsonValue() string {
	for _, v := range []string{FormatJSON, FormatJSONL} {
		if slices.Contains(f.Values, v) {
			return v
		}
	}
	return ""
}

// Flags are --format FORMAT and, when a JSON value is among the values,
// --json.
func (f Format) Flags() []ucli.Flag {
	fs := []ucli.Flag{&ucli.StringFlag{Name: FlagFormat, Value: f.Default,
		Usage: fmt.Sprintf("write the result as `FORMAT`: %s; %s", orList(f.Values), f.Usage)}}
	if j := f.jsonValue(); j != "" {
		fs = append(fs, &ucli.BoolFlag{Name: FlagJSON, Usage: "short for --format " + j})
	}
	return fs
}

// Value reads --format, and --json, which wins when set; a value the
// command does not know is a usage error listing those it does.
func (f Format) Value(c *ucli.Context) (string, error) {
	if j := f.jsonValue(); j != "" && c.Bool(FlagJSON) {
		if c.IsSet(FlagFormat) && c.String(FlagFormat) != j {
			return "", Usagef("--%s and --%s %s: give one", FlagJSON, FlagFormat, c.String(FlagFormat))
		}
		return j, nil
	}
	return Choice{Flag: FlagFormat, Values: f.Values, Deprecated: f.Deprecated}.Value(c)
}
