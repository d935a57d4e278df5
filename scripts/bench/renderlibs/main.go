// Command renderlibs compares chromedp and go-rod on the same work: start
// Debian's chromium, render N script-built pages from a loopback server
// (one fresh tab per page, DOM serialised after the load event plus a
// 100 ms settle), and report start-up time, pages/s and Go heap. It is a
// benchmark-only module: focuscrawl itself depends on one library only.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
)

const page = `<!doctype html><html><body><div id=app></div><script>
document.getElementById('app').innerHTML = '<p>built by script ' + location.pathname + '</p>';
</script></body></html>`

var chromiumFlags = []string{"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync"}

func main() {
	lib := flag.String("lib", "chromedp", "chromedp or rod")
	n := flag.Int("n", 100, "pages")
	bin := flag.String("chromium", "/usr/bin/chromium", "browser")
	flag.Parse()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "renderlibs-")
	defer os.RemoveAll(dir)
	start := time.Now()
	var render func(url string) string
	var stop func()
	switch *lib {
	case "chromedp":
		opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(*bin), chromedp.UserDataDir(dir)}
		for _, f := range chromiumFlags {
			opts = append(opts, chromedp.Flag(f, true))
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelB := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil {
			panic(err)
		}
		stop = func() { cancelB(); cancelA() }
		render = func(url string) string {
			tctx, cancel := chromedp.NewContext(bctx)
			defer cancel()
			if err := chromedp.Do(tctx, chromedp.Navigate(url), chromedp.Sleep(100*time.Millisecond)); err != nil {
				panic(err)
			}
			html, err := chromedp.Run(tctx, chromedp.Evaluate[string]("document.documentElement.outerHTML"))
			if err != nil {
				panic(err)
			}
			return html
		}
	case "rod":
		l := launcher.New().Bin(*bin).UserDataDir(dir).Headless(true)
		for _, f := range chromiumFlags[1:] {
			l = l.Set(flags.Flag(f))
		}
		u := l.MustLaunch()
		b := rod.New().ControlURL(u).MustConnect()
		stop = func() { b.MustClose(); l.Cleanup() }
		render = func(url string) string {
			p := b.MustPage(url)
			defer p.MustClose()
			p.MustWaitLoad()
			time.Sleep(100 * time.Millisecond)
			return p.MustElement("html").MustHTML()
		}
	}
	startup := time.Since(start)
	t0 := time.Now()
	for i := 0; i < *n; i++ {
		if h := render(fmt.Sprintf("%s/p%d", srv.URL, i)); !strings.Contains(h, "built by script") {
			panic("not rendered: " + h)
		}
	}
	el := time.Since(t0)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	stop()
	fmt.Printf("%s: start-up %v, %d pages in %v (%.1f pages/s), Go heap %d MB\n", *lib, startup.Round(time.Millisecond), *n, el.Round(time.Millisecond), float64(*n)/el.Seconds(), ms.HeapSys>>20)
}
