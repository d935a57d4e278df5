package report

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Named is a crawl to report on and the label it goes by.
type Named struct {
	Label  string
	Source Source
}

// CollectAll reads every crawl, in order.
func CollectAll(ctx context.Context, srcs []Named, o Options) ([]*Crawl, error) {
	out := make([]*Crawl, 0, len(srcs))
	for _, s := range srcs {
		c, err := Collect(ctx, s.Source, s.Label, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Label, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Handler serves the report live: / is the HTML page, made again on
// each request (its refresh tag reloads it every page.Refresh seconds),
// and /NAME.svg each chart of Charts alone. One report is made at a
// time; requests meanwhile wait their turn.
func Handler(srcs []Named, o Options, page Page) http.Handler {
	var mu sync.Mutex
	build := func(r *http.Request, render func(*bytes.Buffer, []*Crawl) error) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		crawls, err := CollectAll(r.Context(), srcs, o)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := render(&b, crawls); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		var body []byte
		var err error
		var contentType string
		switch name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".svg"); {
		case r.URL.Path == "/" || r.URL.Path == "/index.html":
			contentType = "text/html; charset=utf-8"
			body, err = build(r, func(b *bytes.Buffer, crawls []*Crawl) error {
				p := page
				p.Generated, p.Crawls = time.Now(), crawls
				return WriteHTML(b, p)
			})
		case strings.HasSuffix(r.URL.Path, ".svg") && Charts[name] != nil:
			contentType = "image/svg+xml"
			body, err = build(r, func(b *bytes.Buffer, crawls []*Crawl) error {
				b.WriteString(Charts[name](crawls))
				return nil
			})
		default:
			http.NotFound(w, r)
			return
		}
		if err != nil {
			http.Error(w, "seed report: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "no-store")
		w.Write(body)
	})
}
