package simweb

import (
	"fmt"
	"io"
	"net/http/httptest"
	"sort"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	sim "github.com/focuscrawl/focuscrawl/internal/simweb"
)

// SeedsOptions say which seeds simweb seeds prints.
type SeedsOptions struct {
	Web   *sim.Web
	Topic string // one of sim.Topics
	JSON  bool   // url records ({"url":…,"depth":0}) instead of plain lines
}

// Seeds writes a few seed URLs for a topic to out: portal homes, a portal
// channel, the best relevant site.
func Seeds(out io.Writer, o SeedsOptions) error {
	seeds, err := o.Web.Seeds(o.Topic)
	if err != nil {
		return err
	}
	for _, u := range seeds {
		line := u
		if o.JSON {
			line = fmt.Sprintf(`{"url":%q,"depth":0}`, u)
		}
		if _, err := fmt.Fprintln(out, line); err != nil {
			return err
		}
	}
	return nil
}

// SitesOptions say which sites simweb sites lists.
type SitesOptions struct {
	Web   *sim.Web
	Topic string // only the sites relevant to it ("": all)
	Kind  string // only the sites of this kind ("": all)
}

// Sites writes the truth of the web's sites to out, one JSON line each.
func Sites(out io.Writer, o SitesOptions) error {
	return SitesStream(cli.NewStream(nil, out, nil), o)
}

// SitesStream is Sites on an open stream, which it closes.
func SitesStream(st *cli.Stream, o SitesOptions) error {
	for _, s := range o.Web.Sites() {
		if (o.Topic != "" && s.Relevance[o.Topic] == 0) || (o.Kind != "" && s.Kind != o.Kind) {
			continue
		}
		if err := st.Out.Write(s); err != nil {
			st.Close()
			return err
		}
	}
	return st.Close()
}

// GetOptions say which page simweb get prints.
type GetOptions struct {
	Web     *sim.Web
	URL     string
	Headers bool // the status line and headers on stderr
}

// Get writes the body of a page, as the web serves it, to out, and with
// o.Headers its status and headers to stderr; a status of 400 or more is an
// error after the body is written.
func Get(out, stderr io.Writer, o GetOptions) error {
	rec := httptest.NewRecorder()
	o.Web.Handler().ServeHTTP(rec, httptest.NewRequest("GET", o.URL, nil))
	if o.Headers {
		fmt.Fprintf(stderr, "HTTP/1.1 %d\n", rec.Code)
		keys := make([]string, 0, len(rec.Header()))
		for k := range rec.Header() {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(stderr, "%s: %s\n", k, rec.Header().Get(k))
		}
	}
	if _, err := out.Write(rec.Body.Bytes()); err != nil {
		return err
	}
	if rec.Code >= 400 {
		return fmt.Errorf("%s: status %d", o.URL, rec.Code)
	}
	return nil
}
