// Command colly is the gocolly/colly v2 side of the fetch benchmark: it
// fetches the URLs on stdin at a given concurrency, with a keep-alive
// transport whose every connection goes to one loopback address (colly's
// best case: SetProxy would turn keep-alive off), and writes one JSON
// line per page, as fetch does.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/gocolly/colly/v2"
)

type page struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
	HTML   string `json:"html,omitempty"`
	Error  string `json:"error,omitempty"`
}

func main() {
	conc := flag.Int("c", 128, "requests in flight")
	addr := flag.String("connect", "", "dial every host at this address (ip:port)")
	flag.Parse()

	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			if *addr != "" {
				a = *addr
			}
			return dialer.DialContext(ctx, network, a)
		},
		MaxIdleConns:        4 * *conc,
		MaxIdleConnsPerHost: *conc,
		IdleConnTimeout:     90 * time.Second,
	}
	c := colly.NewCollector(colly.Async(true))
	c.WithTransport(tr)
	c.SetRequestTimeout(30 * time.Second)
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: *conc}); err != nil {
		log.Fatal(err)
	}
	out := bufio.NewWriterSize(os.Stdout, 256<<10)
	var mu sync.Mutex
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	emit := func(p page) {
		mu.Lock()
		enc.Encode(p)
		mu.Unlock()
	}
	c.OnResponse(func(r *colly.Response) {
		emit(page{URL: r.Request.URL.String(), Status: r.StatusCode, HTML: string(r.Body)})
	})
	c.OnError(func(r *colly.Response, err error) {
		emit(page{URL: r.Request.URL.String(), Status: r.StatusCode, Error: err.Error()})
	})
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if err := c.Visit(sc.Text()); err != nil {
			emit(page{URL: sc.Text(), Error: err.Error()})
		}
	}
	c.Wait()
	out.Flush()
	fmt.Fprintln(os.Stderr, "colly: done")
}
