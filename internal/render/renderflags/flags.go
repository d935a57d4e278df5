// Package renderflags holds the flags of fetch --render, offered by fetch
// and verify under the same names and environment variables.
package renderflags

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/render"
)

// Flag names; each is settable by the environment variable cli.FlagEnv
// gives it too (FOCUSCRAWL_RENDER).
const (
	Render     = "render"
	Chromium   = "chromium"
	Timeout    = "render-timeout"
	Tabs       = "render-tabs"
	ThirdParty = "render-third-party"
)

// Options are the rendering settings the flags give.
type Options struct {
	Mode   render.Mode
	Config render.Config
}

// Flags returns the rendering flags.
func Flags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: Render, Value: "never", Usage: "run pages' scripts in headless Chromium: never, auto (the pages whose HTML shows they need it) or always"},
		&ucli.StringFlag{Name: Chromium, Usage: "the browser to render with (`PATH`)", DefaultText: "chromium on $PATH"},
		&ucli.DurationFlag{Name: Timeout, Value: 20 * time.Second, Usage: "hard cap on rendering one page; a page still changing then is taken as it stands (render_cut)"},
		&ucli.IntFlag{Name: Tabs, Value: 2, Usage: "pages rendered at once (browser tabs)"},
		&ucli.BoolFlag{Name: ThirdParty, Usage: "let rendered pages' scripts request other hosts than the page's own (each fetched politely)"},
	}
}

// Read reads the flags of Flags. A bad value is a usage error naming its
// flag.
func Read(c *ucli.Context) (Options, error) {
	mode, err := render.ParseMode(c.String(Render))
	if err != nil {
		return Options{}, cli.Usagef("--%s %v", Render, err)
	}
	if d := c.Duration(Timeout); d <= 0 {
		return Options{}, cli.Usagef("--%s %v: must be positive", Timeout, d)
	}
	if n := c.Int(Tabs); n < 1 || n > 64 {
		return Options{}, cli.Usagef("--%s %d: must be between 1 and 64", Tabs, n)
	}
	return Options{Mode: mode, Config: render.Config{
		Chromium: c.String(Chromium), Timeout: c.Duration(Timeout), Tabs: c.Int(Tabs), ThirdParty: c.Bool(ThirdParty),
	}}, nil
}
