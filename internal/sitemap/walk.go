package sitemap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Found is a URL listed in a sitemap, and the sitemap that listed it.
type Found struct {
	Entry
	Sitemap string
}

// Walker fetches sitemaps, follows sitemap indexes, and reports every URL
// listed. Its zero value is not usable: set Client.
type Walker struct {
	Client    *http.Client
	UserAgent string
	// MaxSitemaps bounds the sitemap files read per Walk (0: no limit).
	MaxSitemaps int
	// MaxBytes bounds one file, after decompression.
	MaxBytes int64
	// Delay separates two requests.
	Delay time.Duration
	// AnyHost keeps URLs on any site; by default a sitemap fetched over
	// HTTP may only list URLs of its own site (registrable domain), as
	// sitemaps.org requires.
	AnyHost bool
	// OnError hears of a sitemap or robots.txt that could not be read;
	// the walk goes on with the others.
	OnError func(loc string, err error)

	lastRequest time.Time
}

// DefaultMaxBytes is the limit sitemaps.org sets on one sitemap file.
const DefaultMaxBytes = 50 << 20

// ErrTooLarge marks a sitemap over the Walker's MaxBytes.
var ErrTooLarge = errors.New("sitemap larger than the limit")

// Walk starts from each of starts — a site's root URL (its robots.txt is
// read for Sitemap: lines, falling back to /sitemap.xml), a robots.txt
// URL, a sitemap URL or a local sitemap file — and calls emit for every
// URL found, each once.
func (w *Walker) Walk(ctx context.Context, starts []string, emit func(Found) error) error {
	var queue []string
	seenMap := map[string]bool{}
	push := func(loc string) {
		if !seenMap[loc] {
			seenMap[loc] = true
			queue = append(queue, loc)
		}
	}
	for _, s := range starts {
		locs, err := w.resolveStart(ctx, s)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			w.fail(s, err)
			continue
		}
		for _, l := range locs {
			push(l)
		}
	}
	seenURL := map[string]bool{}
	read := 0
	for len(queue) > 0 {
		loc := queue[0]
		queue = queue[1:]
		if w.MaxSitemaps > 0 && read >= w.MaxSitemaps {
			w.fail(loc, fmt.Errorf("not read: %d sitemaps read already (the limit)", read))
			continue
		}
		read++
		site := ""
		if isHTTP(loc) && !w.AnyHost {
			site = urlx.SiteKey(loc)
		}
		err := w.read(ctx, loc, Handler{
			URL: func(e Entry) error {
				u, err := resolveLoc(loc, e.Loc)
				if err != nil || seenURL[u] || (site != "" && urlx.SiteKey(u) != site) {
					return nil
				}
				seenURL[u] = true
				e.Loc = u
				return emit(Found{Entry: e, Sitemap: loc})
			},
			Sitemap: func(e Entry) error {
				if u, err := resolveLoc(loc, e.Loc); err == nil {
					push(u)
				}
				return nil
			},
		})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var ee *emitError
			if errors.As(err, &ee) {
				return ee.err
			}
			w.fail(loc, err)
		}
	}
	return nil
}

// emitError carries an error of the caller's emit out of a parse.
type emitError struct{ err error }

func (e *emitError) Error() string { return e.err.Error() }

func (w *Walker) fail(loc string, err error) {
	if w.OnError != nil {
		w.OnError(loc, err)
	}
}

func isHTTP(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// resolveLoc makes a sitemap's loc absolute and normal; a local file's
// locs must already be absolute.
func resolveLoc(base, loc string) (string, error) {
	if isHTTP(base) {
		return urlx.Resolve(base, loc)
	}
	return urlx.Normalize(loc)
}

// resolveStart turns a starting point into sitemap locations.
func (w *Walker) resolveStart(ctx context.Context, s string) ([]string, error) {
	if !isHTTP(s) {
		if _, err := os.Stat(s); err != nil {
			return nil, err
		}
		return []string{s}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	switch {
	case u.Path == "" || u.Path == "/":
		robots := u.Scheme + "://" + u.Host + "/robots.txt"
		locs, err := w.robots(ctx, robots)
		if err != nil || len(locs) == 0 {
			return []string{u.Scheme + "://" + u.Host + "/sitemap.xml"}, nil
		}
		return locs, nil
	case strings.HasSuffix(u.Path, "/robots.txt"):
		return w.robots(ctx, s)
	}
	return []string{s}, nil
}

func (w *Walker) robots(ctx context.Context, loc string) ([]string, error) {
	rc, err := w.open(ctx, loc)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	lines, err := RobotsSitemaps(io.LimitReader(rc, 1<<20))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range lines {
		if u, err := urlx.Resolve(loc, l); err == nil {
			out = append(out, u)
		}
	}
	return out, nil
}

func (w *Walker) read(ctx context.Context, loc string, h Handler) error {
	rc, err := w.open(ctx, loc)
	if err != nil {
		return err
	}
	defer rc.Close()
	wrap := func(f func(Entry) error) func(Entry) error {
		return func(e Entry) error {
			if err := f(e); err != nil {
				return &emitError{err}
			}
			return nil
		}
	}
	max := w.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	return ParseLimit(rc, Handler{URL: wrap(h.URL), Sitemap: wrap(h.Sitemap)}, max)
}

// open gets a sitemap or robots.txt, over HTTP or from a file.
func (w *Walker) open(ctx context.Context, loc string) (io.ReadCloser, error) {
	if !isHTTP(loc) {
		return os.Open(loc)
	}
	if w.Delay > 0 && !w.lastRequest.IsZero() {
		t := time.NewTimer(time.Until(w.lastRequest.Add(w.Delay)))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	w.lastRequest = time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return nil, err
	}
	if w.UserAgent != "" {
		req.Header.Set("User-Agent", w.UserAgent)
	}
	resp, err := w.Client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return resp.Body, nil
}
