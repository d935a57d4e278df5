package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/version"
)

// App describes one command.
type App struct {
	Name    string
	Usage   string // one line
	Args    string // e.g. "[FILE...]"
	Example string // a one-line pipeline shown in --help
	Flags   []ucli.Flag
	Action  ucli.ActionFunc
	// Commands are subcommands (seed, score idf, dedupe search).
	Commands []*ucli.Command
}

// New builds the urfave/cli application for a, with the exit codes and
// the example in its help.
func New(a App) *ucli.App {
	app := &ucli.App{
		Name:                   a.Name,
		Usage:                  a.Usage,
		UsageText:              fmt.Sprintf("%s [options] %s\n\nEXAMPLE:\n   %s", a.Name, a.Args, a.Example),
		Version:                version.Version,
		Flags:                  a.Flags,
		Action:                 a.Action,
		Commands:               a.Commands,
		HideHelpCommand:        true,
		UseShortOptionHandling: true,
		OnUsageError:           usageError(a.Flags),
		CustomAppHelpTemplate:  ucli.AppHelpTemplate + "\n" + ExitCodesHelp,
	}
	app.Before = checkRequired(takeRequired(app.Flags), warnOldEnv([]string{a.Name}, app.Before))
	setEnv([]string{a.Name}, app.Flags)
	for _, c := range a.Commands {
		prepareCommand(c, []string{a.Name})
	}
	return app
}

func prepareCommand(c *ucli.Command, parent []string) {
	path := append(slices.Clone(parent), c.Name)
	setEnv(path, c.Flags)
	// urfave/cli derives HelpName from the parent's when it is empty, and
	// prefixes the app's name to a top-level command's on every run: a
	// command built again in one process (tests) would read "seed seed add".
	c.HelpName = ""
	c.HideHelpCommand = true // `seed add help` would be a command of its own
	if c.CustomHelpTemplate == "" {
		if len(c.Subcommands) > 0 {
			c.CustomHelpTemplate = ucli.SubcommandHelpTemplate + "\n" + ExitCodesHelp
		} else {
			c.CustomHelpTemplate = ucli.CommandHelpTemplate + "\n" + ExitCodesHelp
		}
	}
	if c.OnUsageError == nil {
		c.OnUsageError = usageError(c.Flags)
	}
	c.Before = checkRequired(takeRequired(c.Flags), warnOldEnv(path, c.Before))
	for _, s := range c.Subcommands {
		prepareCommand(s, path)
	}
}

// Main runs app with a context cancelled by SIGINT or SIGTERM, prints what
// went wrong, and exits with the mapped code. A second signal kills at
// once.
func Main(app *ucli.App) {
	os.Exit(Run(app, os.Args, os.Stderr))
}

// Run is Main without the exit, for tests.
func Run(app *ucli.App, args []string, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // the next signal takes the default action
	}()
	// With SIGPIPE handled, a write to a closed stdout returns EPIPE, which
	// ExitCode maps to a quiet exit instead of death by signal.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	app.ErrWriter = stderr
	if words, ok := completionRequest(args); ok {
		complete(app, words)
		return ExitOK
	}
	app.ExitErrHandler = func(*ucli.Context, error) {} // exit in one place: here
	normalizeDurationEnv(app)
	warnRetiredEnv(app.Name, stderr)
	reordered := ReorderArgs(app, args)
	words := commandPath(app, reordered)
	err := app.RunContext(ctx, reordered)
	code, report := ExitCode(ctx, err)
	if report && err != nil && err.Error() != "" {
		// The line names the command and subcommand that failed:
		// "seed next: missing required flag --db".
		path := strings.Join(words, " ")
		// An error may quote a page (a title, a URL): no terminal controls.
		fmt.Fprintf(stderr, "%s: %s\n", path, PrintableText(err.Error()))
		if code == ExitUsage {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", path)
		}
	}
	return code
}
