package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// completionFlag ends the words of a completion request, the protocol of
// urfave/cli that scripts/completion.bash speaks: `seed add --d
// --generate-bash-completion` asks for the flags of seed add that start
// with --d. It is answered here rather than by urfave/cli, whose answer
// depends on os.Args and panics on an unfinished flag name.
const completionFlag = "--generate-bash-completion"

// completionRequest returns the words typed (after the program name) when
// args is a completion request.
func completionRequest(args []string) ([]string, bool) {
	if len(args) < 2 || args[len(args)-1] != completionFlag {
		return nil, false
	}
	return args[1 : len(args)-1], true
}

// complete prints the candidates for the last word: the flags of the
// command reached when it starts with a dash, else its subcommands.
func complete(app *ucli.App, words []string) {
	var out io.Writer = os.Stdout
	if app.Writer != nil {
		out = app.Writer
	}
	flags, commands := appFlags(app), app.Commands
	for i, w := range words {
		if i == len(words)-1 && strings.HasPrefix(w, "-") {
			break
		}
		if c := findCommand(commands, w); c != nil {
			flags, commands = append(append([]ucli.Flag{}, c.Flags...), ucli.HelpFlag), c.Subcommands
		}
	}
	last := ""
	if len(words) > 0 {
		last = words[len(words)-1]
	}
	if strings.HasPrefix(last, "-") {
		for _, f := range flags {
			if v, ok := f.(ucli.VisibleFlag); ok && !v.IsVisible() {
				continue
			}
			for _, n := range f.Names() {
				if name := dashes(n); strings.HasPrefix(name, last) {
					fmt.Fprintln(out, name)
				}
			}
		}
		return
	}
	for _, c := range commands {
		if !c.Hidden {
			fmt.Fprintln(out, c.Name)
		}
	}
}

// commandPath is the program and the commands named by args, as reordered
// (flags first at each level): "seed add" for seed add --db x file.
func commandPath(app *ucli.App, args []string) []string {
	path := []string{app.Name}
	flags, commands := appFlags(app), app.Commands
	for i := 1; i < len(args); i++ {
		w := args[i]
		if w == "--" {
			break
		}
		if isFlagWord(w) {
			if takesValue(flags, w) {
				i++
			}
			continue
		}
		c := findCommand(commands, w)
		if c == nil {
			break
		}
		path = append(path, c.Name)
		flags, commands = append(append([]ucli.Flag{}, c.Flags...), ucli.HelpFlag), c.Subcommands
	}
	return path
}
