package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"

	"github.com/chromedp/chromedp"
)

// ErrNoChromium is the start-up error when no browser can be found.
var ErrNoChromium = errors.New("chromium not found (install Debian's chromium, or give --chromium PATH)")

// FindChromium returns the browser to run: path when given (it must be an
// executable file), else chromium, chromium-browser or google-chrome on
// PATH.
func FindChromium(path string) (string, error) {
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrNoChromium, path, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// browser is one running Chromium.
type browser struct {
	ctx    context.Context // the browser's chromedp context; ends when it dies
	cancel context.CancelFunc
	dir    string          // its profile, removed when it is closed
	lost   <-chan struct{} // closed when the connection to it drops
}

// launch starts Chromium with a fresh profile. Every request of its pages
// is intercepted and answered by the fetcher; as a second wall, the
// browser is pointed at a proxy that does not exist, so that whatever is
// not intercepted (a WebSocket, a service worker) cannot reach the
// network, and its own background traffic is off.
//
// Memory is bounded by the tabs (one renderer process each at most, see
// renderer-process-limit) and by a cap on each page's JavaScript heap: a
// page that outgrows it crashes its own tab, which ends that page in an
// error record, not the browser.
func launch(bin, userAgent string, tabs int) (*browser, error) {
	dir, err := os.MkdirTemp("", "focuscrawl-render-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.UserDataDir(dir),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("blink-settings", "imagesEnabled=false"),
		chromedp.Flag("proxy-server", "http://127.0.0.1:9"),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("disable-features", "Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions"),
		chromedp.WindowSize(1280, 1024),
		// Every tab but one is a background tab: without these, Chromium
		// slows their timers and frames, and a page in a background tab
		// settles late or not at all.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("renderer-process-limit", fmt.Sprint(tabs+1)),
		chromedp.Flag("js-flags", "--max-old-space-size=256"),
	}
	if userAgent != "" {
		opts = append(opts, chromedp.UserAgent(userAgent))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	b := &browser{ctx: bctx, dir: dir, cancel: func() { cancelB(); cancelA(); os.RemoveAll(dir) }}
	if err := chromedp.Do(bctx); err != nil {
		b.cancel()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	b.lost = chromedp.FromContext(bctx).Browser.LostConnection
	return b, nil
}

// alive tells whether the browser still runs. A call that failed because
// the browser died returns after the connection is lost but possibly
// before the allocator has cancelled the browser's context, so both are
// asked: the context alone would call a browser killed a moment ago alive,
// and its page an ordinary failure instead of a crash to try again.
func (b *browser) alive() bool {
	if b.ctx.Err() != nil {
		return false
	}
	select {
	case <-b.lost:
		return false
	default:
		return true
	}
}

// pid is the browser's process id (0 if unknown).
func (b *browser) pid() int {
	if c := chromedp.FromContext(b.ctx); c != nil && c.Browser != nil {
		if p := c.Browser.Process(); p != nil {
			return p.Pid
		}
	}
	return 0
}

// browserSlot keeps the current browser, starting one when needed and a
// new one after a crash.
type browserSlot struct {
	bin, userAgent string
	tabs           int
	mu             sync.Mutex
	b              *browser
	restarts       int
	closed         bool
}

// get returns a running browser.
func (s *browserSlot) get() (*browser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("renderer closed")
	}
	if s.b != nil && s.b.alive() {
		return s.b, nil
	}
	if s.b != nil {
		s.b.cancel()
		s.b = nil
		s.restarts++
	}
	b, err := launch(s.bin, s.userAgent, s.tabs)
	if err != nil {
		return nil, err
	}
	s.b = b
	return b, nil
}

// close stops the browser.
func (s *browserSlot) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.b != nil {
		s.b.cancel()
		s.b = nil
	}
}
