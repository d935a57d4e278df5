package fetcher

import (
	"context"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/charset"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// acceptHeader asks for HTML first.
const acceptHeader = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"

// acceptEncoding lists the codings readBody decodes.
const acceptEncoding = "gzip, deflate, br, zstd"

// work runs jobs until the fetcher stops.
func (f *Fetcher) work() {
	for {
		select {
		case j := <-f.jobs:
			f.runJob(j)
		case <-f.stop:
			return
		}
	}
}

func (f *Fetcher) runJob(j job) {
	switch j.kind {
	case jobFail:
		j.it.deliver(failedItem(j.it, j.err))
		return
	case jobRobots:
		f.report(f.fetchRobots(j))
	case jobPage:
		o := f.attempt(j)
		ev := doneEvent{host: j.host, wait: o.wait}
		switch {
		case o.retry:
			ev.retry = j.it
			f.stats.retries.Add(1)
		case o.redirect:
			ev.redirect = j.it
		default:
			j.it.deliver(o.page)
		}
		if j.it.bigSlot {
			j.it.bigSlot = false
			<-f.big
		}
		f.report(ev)
	}
}

func (f *Fetcher) report(ev doneEvent) {
	select {
	case f.done <- ev:
	case <-f.stop:
	}
}

// newPage starts the page of u: its URL, lineage and meta.
func newPage(u record.URL, at time.Time) record.Page {
	return record.Page{URL: u.URL, FetchedAt: at.UTC(), Lineage: u.Lineage, Meta: u.Meta}
}

// failed is the page of a URL that was not fetched.
func failed(u record.URL, at time.Time, err error) record.Page {
	p := newPage(u, at)
	p.Error = err.Error()
	return p
}

// outcome is the result of one attempt at an item.
type outcome struct {
	page record.Page
	// retry queues the item again at the front of its host after wait.
	retry bool
	// redirect queues the item, now aimed at the redirect target, at the
	// front of the target's host: every hop waits its host's turn and
	// passes its robots.txt.
	redirect bool
	// wait pauses the whole host (backoff or Retry-After).
	wait time.Duration
}

// failedItem is the page of an item that ends without a request (robots,
// cancellation), with the redirects it followed so far.
func failedItem(it *item, err error) record.Page {
	at := it.started
	if at.IsZero() {
		at = time.Now()
	}
	p := failed(it.u, at, err)
	p.Redirects = it.hops
	if n := len(it.hops); n > 0 {
		p.FinalURL = it.hops[n-1]
	}
	return p
}

// attempt makes one try at an item.
func (f *Fetcher) attempt(j job) outcome {
	it := j.it
	if it.started.IsZero() {
		it.started = time.Now()
	}
	it.attempts++
	p := newPage(it.u, it.started)
	p.Redirects = it.hops
	if err := it.ctx.Err(); err != nil {
		p.Error = errorCanceled.Error()
		return outcome{page: p}
	}
	var retryAfter time.Duration
	var retriable bool
	var next *url.URL
	if it.resource != nil {
		retryAfter, retriable = f.getResource(withGate(it.ctx, j.host.gate, j.delay), it, &p)
	} else {
		retryAfter, retriable, next = f.get(withGate(it.ctx, j.host.gate, j.delay), it, &p)
	}
	// Like fetched_at, elapsed_ms counts from the first attempt.
	p.ElapsedMS = time.Since(it.started).Milliseconds()
	if next != nil {
		if err := f.follow(it, *next); err != nil {
			p.Redirects = it.hops
			p.Error = KindRedirect + ": " + err.Error()
			return outcome{page: p}
		}
		return outcome{redirect: true}
	}
	if retryAfter > f.cfg.MaxRetryAfter {
		p.Error += "; Retry-After " + retryAfter.String() + " over --max-retry-after"
		return outcome{page: p, wait: f.cfg.MaxRetryAfter}
	}
	if !retriable {
		return outcome{page: p, wait: retryAfter}
	}
	wait := max(retryAfter, f.backoff(it.attempts))
	if it.attempts > f.cfg.Retries || it.ctx.Err() != nil {
		return outcome{page: p, wait: wait}
	}
	return outcome{page: p, retry: true, wait: wait}
}

// backoff is the pause after the n-th failed attempt: exponential, capped,
// with "equal jitter" (half fixed, half random) so that hosts failing
// together do not retry together.
func (f *Fetcher) backoff(n int) time.Duration {
	d := f.cfg.Backoff << min(n-1, 30)
	if d <= 0 || d > f.cfg.MaxBackoff {
		d = f.cfg.MaxBackoff
	}
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// retriableStatus are the answers worth another try after a pause.
func retriableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusBadGateway ||
		code == http.StatusServiceUnavailable || code == http.StatusGatewayTimeout
}

// get makes the request and fills p. It returns the server's Retry-After
// and whether the failure, if any, is worth retrying, or the location of
// a redirect to follow.
func (f *Fetcher) get(ctx context.Context, it *item, p *record.Page) (retryAfter time.Duration, retriable bool, next *url.URL) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, it.target.url.String(), nil)
	if err != nil {
		p.Error = KindInvalid + ": " + err.Error()
		return 0, false, nil
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", acceptHeader)
	for name, values := range f.cfg.Header {
		req.Header[http.CanonicalHeaderKey(name)] = values
	}
	req.Header.Set("Accept-Encoding", acceptEncoding)
	resp, err := f.client.Do(req)
	if msg, ok := blockedMessage(err); ok {
		p.Error = msg
		return 0, false, nil
	}
	if err != nil {
		msg, retr := describe(err)
		if msg == errorCanceled.Error() && it.ctx.Err() == nil {
			msg, retr = KindTimeout+": "+err.Error(), true
		}
		p.Error = msg
		return 0, retr, nil
	}
	defer resp.Body.Close()
	p.Status = resp.StatusCode
	if final := resp.Request.URL.String(); final != p.URL {
		p.FinalURL = final // omitted when the same as url (docs/records.md)
	}
	ctHeader := resp.Header.Get("Content-Type")
	mediaType := mediaTypeOf(ctHeader)
	p.ContentType = mediaType
	if loc := resp.Header.Get("Location"); loc != "" && isRedirect(resp.StatusCode) {
		drain(resp.Body)
		it.setCookie = append(it.setCookie, len(resp.Header.Values("Set-Cookie")) > 0)
		u, err := resp.Request.URL.Parse(loc)
		if err != nil {
			u = &url.URL{Scheme: "invalid", Opaque: loc}
		}
		return 0, false, u
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg, retr := statusFailure(resp)
		p.Error = msg
		drain(resp.Body)
		return parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), retr, nil
	}
	if mediaType != "" && !f.accepts(mediaType) {
		drain(resp.Body)
		return 0, false, nil
	}
	buf := getBuffer()
	defer putBuffer(buf)
	wire, truncated, err := readBody(resp, f.cfg.MaxBytes, buf, func() error {
		// Wait for one of the few big-body slots; it is held until the
		// page has been handed over (runJob releases it).
		select {
		case f.big <- struct{}{}:
			it.bigSlot = true
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	p.Bytes, p.Truncated = wire, truncated
	if err != nil {
		if be, ok := err.(*bodyError); ok {
			p.Error = KindBody + ": " + be.Error()
			return 0, false, nil
		}
		msg, retr := describe(err)
		p.Error = msg
		return 0, retr, nil
	}
	body := buf.Bytes()
	if mediaType == "" {
		mediaType = mediaTypeOf(http.DetectContentType(body))
		p.ContentType = mediaType
		if !f.accepts(mediaType) {
			return 0, false, nil
		}
	}
	if isText(mediaType) {
		if name, binary := sniffBinary(body); binary {
			// A ZIP or an image served as text/html: decoding would give
			// a page of U+FFFD.
			p.Error = KindNotHTML + ": " + name
			return 0, false, nil
		}
		html, cs, _ := charset.Decode(body, ctHeader)
		p.HTML, p.Charset = html, cs
	}
	return 0, false, nil
}

// accepts tells whether bodies of mediaType are kept.
func (f *Fetcher) accepts(mediaType string) bool {
	for _, a := range f.cfg.Accept {
		switch {
		case a == "*/*" || a == "*":
			return true
		case a == mediaType:
			return true
		case strings.HasSuffix(a, "/*") && strings.HasPrefix(mediaType, a[:len(a)-1]):
			return true
		case strings.HasPrefix(a, "*/*+") && strings.HasSuffix(mediaType, a[3:]):
			return true
		}
	}
	return false
}

// isText tells whether a media type is text that belongs in Page.HTML.
func isText(mt string) bool {
	return strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+xml") ||
		strings.HasSuffix(mt, "+json") || mt == "application/xml" || mt == "application/json" ||
		mt == "application/javascript" || mt == "application/ecmascript"
}

// mediaTypeOf gives the lower-case media type of a Content-Type value.
func mediaTypeOf(ct string) string {
	if ct == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// parseRetryAfter reads a Retry-After value: seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0
		}
		if n > 1<<30 {
			n = 1 << 30
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// drain reads a little of an unwanted body so a small one leaves its
// connection reusable.
func drain(r io.Reader) {
	io.CopyN(io.Discard, r, 64<<10)
}
