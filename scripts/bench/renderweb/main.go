// Command renderweb serves the render test web (internal/render/testweb)
// on loopback for scripts/bench/render.sh: it prints its address, then,
// with -urls FILE, writes there the URLs of the pages of the kinds asked
// for, spread over -hosts host names. With -check FILE it judges fetch's
// page records of that web against the truth: which pages were rendered,
// and how much of the script-built content their HTML holds.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/render/testweb"
)

func main() {
	n := flag.Int("n", 20, "pages of each kind")
	hosts := flag.Int("hosts", 20, "host names the pages are spread over")
	kinds := flag.String("kinds", "script", "script (the pages that need scripts, without the never-settling one), static, or all")
	urls := flag.String("urls", "", "write the page URLs to `FILE`")
	check := flag.String("check", "", "judge the page records of `FILE` against the truth instead of serving")
	flag.Parse()
	web := testweb.New(*n)
	if *check != "" {
		if err := judge(web, *check); err != nil {
			log.Fatal(err)
		}
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if *urls != "" {
		var b strings.Builder
		for i, p := range web.Pages() {
			switch {
			case *kinds == "script" && (!p.NeedsJS || p.Endless), *kinds == "static" && p.NeedsJS:
				continue
			}
			fmt.Fprintf(&b, "http://h%d.render.test:%s%s\n", i%*hosts, port, p.Path)
		}
		if err := os.WriteFile(*urls, []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(ln.Addr())
	log.Fatal(http.Serve(ln, web))
}
