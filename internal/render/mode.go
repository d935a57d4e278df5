package render

import (
	"context"
	"fmt"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Mode says which pages are rendered.
type Mode int

const (
	// Never renders nothing: pages are the server's HTML.
	Never Mode = iota
	// Auto renders the pages whose static HTML shows that scripts build
	// their content (NeedsScripts).
	Auto
	// Always renders every HTML page.
	Always
)

// Modes are the names of the modes, in order.
var Modes = []string{"never", "auto", "always"}

func (m Mode) String() string {
	if m < 0 || int(m) >= len(Modes) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return Modes[m]
}

// ParseMode reads a mode's name.
func ParseMode(s string) (Mode, error) {
	for i, name := range Modes {
		if strings.EqualFold(strings.TrimSpace(s), name) {
			return Mode(i), nil
		}
	}
	return Never, fmt.Errorf("%q: want never, auto or always", s)
}

// Wants tells whether a fetched page is to be rendered: an HTML page
// fetched without error, under Always, or under Auto when NeedsScripts
// says so.
func (m Mode) Wants(p *record.Page) bool {
	if m == Never || p.Error != "" || p.HTML == "" || p.Rendered {
		return false
	}
	switch p.ContentType {
	case "", "text/html", "application/xhtml+xml":
	default:
		return false
	}
	return m == Always || NeedsScripts(p.HTML).Render
}

// PageFetcher fetches pages and renders those its Mode wants: the
// one-page-at-a-time view of fetch --render, for verify.
type PageFetcher struct {
	Fetcher  *fetcher.Fetcher
	Renderer *Renderer // nil when Mode is Never
	Mode     Mode
}

// Fetch fetches u, then renders the page if wanted. Like
// fetcher.Fetch it never fails: errors are in the page.
func (pf PageFetcher) Fetch(ctx context.Context, u record.URL) record.Page {
	p := pf.Fetcher.Fetch(ctx, u)
	if pf.Renderer != nil && pf.Mode.Wants(&p) {
		pf.Renderer.Render(ctx, &p)
	}
	return p
}
