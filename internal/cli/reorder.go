package cli

import (
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// ReorderArgs moves the flags that follow an argument in front of the
// arguments, at each level of the command line (the app, each command and
// subcommand), so that `fetch seeds.txt --proxy URL` means `fetch --proxy
// URL seeds.txt`. urfave/cli stops reading flags at the first argument;
// without this, the flag and its value would be read as file names, after
// the files before them were processed.
//
// The flag definitions say which flags take a value: the word after
// `--proxy` is its value, the word after a boolean such as `--headers` is
// an argument. Everything after `--` is an argument, as usual: `cmd --
// -odd-file` reads a file named -odd-file. A lone `-` (stdin) is an
// argument. args[0] is the program name and stays first. A duration
// written as a bare number gets its unit, seconds (`--delay 5`).
func ReorderArgs(app *ucli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := make([]string, 0, len(args))
	out = append(out, args[0])
	return append(out, reorderLevel(appFlags(app), app.Commands, args[1:])...)
}

// appFlags are the flags of the root level: the app's own, and the help
// and version flags urfave/cli adds.
func appFlags(app *ucli.App) []ucli.Flag {
	flags := append([]ucli.Flag{}, app.Flags...)
	flags = append(flags, ucli.HelpFlag)
	if !app.HideVersion {
		flags = append(flags, ucli.VersionFlag)
	}
	return flags
}

// reorderLevel reorders the words of one level: its flags first, then, when
// the first argument names a command, that command and its own words
// reordered; otherwise the arguments.
func reorderLevel(flags []ucli.Flag, commands []*ucli.Command, words []string) []string {
	var flagWords, argWords []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			// The rest are arguments; "--" goes in front of all of them so
			// that none is read as a flag.
			out := append(flagWords, "--")
			out = append(out, argWords...)
			return append(out, words[i+1:]...)
		case isFlagWord(w):
			flagWords = append(flagWords, normalizeFlagWord(flags, w))
			if takesValue(flags, w) && i+1 < len(words) {
				i++
				flagWords = append(flagWords, normalizeValue(valueFlag(flags, w), words[i]))
			}
		case len(argWords) == 0 && findCommand(commands, w) != nil:
			cmd := findCommand(commands, w)
			if cmd.SkipFlagParsing {
				return append(append(flagWords, w), words[i+1:]...)
			}
			sub := append(append([]ucli.Flag{}, cmd.Flags...), ucli.HelpFlag)
			out := append(flagWords, w)
			return append(out, reorderLevel(sub, cmd.Subcommands, words[i+1:])...)
		default:
			argWords = append(argWords, w)
		}
	}
	return append(flagWords, argWords...)
}

// isFlagWord tells whether a word is a flag: -x, --name, --name=value. A
// lone "-" is stdin, and a negative number an argument.
func isFlagWord(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	if c := w[1]; c >= '0' && c <= '9' || c == '.' {
		return false
	}
	return true
}

// takesValue tells whether the flag word w is followed by its value: a
// flag that is not a boolean, given without "=value". Combined short
// booleans (-qv) take a value only when their last letter does; an unknown
// flag takes none (urfave/cli reports it).
func takesValue(flags []ucli.Flag, w string) bool {
	name := strings.TrimLeft(w, "-")
	if strings.Contains(name, "=") {
		return false
	}
	if f := findFlag(flags, name); f != nil {
		return flagTakesValue(f)
	}
	if !strings.HasPrefix(w, "--") && len(name) > 1 {
		if f := findFlag(flags, name[len(name)-1:]); f != nil {
			return flagTakesValue(f)
		}
	}
	return false
}

// valueFlag is the flag whose value follows the flag word w.
func valueFlag(flags []ucli.Flag, w string) ucli.Flag {
	name := strings.TrimLeft(w, "-")
	if f := findFlag(flags, name); f != nil {
		return f
	}
	return findFlag(flags, name[len(name)-1:])
}

func flagTakesValue(f ucli.Flag) bool {
	if v, ok := f.(interface{ TakesValue() bool }); ok {
		return v.TakesValue()
	}
	return false
}

func findFlag(flags []ucli.Flag, name string) ucli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

func findCommand(commands []*ucli.Command, name string) *ucli.Command {
	for _, c := range commands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
