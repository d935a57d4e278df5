package fetcher

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// Resource is the raw answer to a subresource request a rendering browser
// made (a script, a JSON file): status, headers and the body as it is
// after Content-Encoding was undone, whatever its media type. Redirects
// are not followed: the browser follows them, and each hop comes back as
// a request of its own.
type Resource struct {
	Status int
	Header http.Header
	Body   []byte
	// Truncated says the body was cut at MaxBytes.
	Truncated bool
}

// FetchResource fetches url for a page being rendered, through the same
// per-host queue, delay, robots.txt cache, retries and address guard as
// pages: a rendered page's requests to a host are part of that host's
// budget. header holds request headers of the browser worth passing on
// (Accept, Referer); User-Agent and Accept-Encoding are the fetcher's.
// The error says why no answer came, with a Page.Error-style kind
// ("robots-disallow", "blocked address …", "timeout: …"); a non-2xx
// answer is not an error.
func (f *Fetcher) FetchResource(ctx context.Context, url string, header http.Header) (*Resource, error) {
	reply := make(chan record.Page, 1)
	res := &Resource{}
	it := &item{ctx: ctx, u: record.URL{URL: url}, resource: res, header: header,
		deliver: func(p record.Page) { reply <- p }}
	f.stats.resources.Add(1)
	select {
	case f.submit <- it:
	case <-ctx.Done():
		return nil, errorCanceled
	case <-f.stop:
		return nil, errorCanceled
	}
	var p record.Page
	select {
	case p = <-reply:
	case <-ctx.Done():
		f.notifyCanceled()
		p = <-reply
	}
	if p.Error != "" {
		return nil, errors.New(p.Error)
	}
	return res, nil
}

// getResource makes the request of a resource item: like get, but the body
// is kept raw (decoded only from its Content-Encoding), of any media type,
// and a redirect is answered, not followed. It reports the same retry
// hints as get.
func (f *Fetcher) getResource(ctx context.Context, it *item, p *record.Page) (retryAfter time.Duration, retriable bool) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, it.target.url.String(), nil)
	if err != nil {
		p.Error = KindInvalid + ": " + err.Error()
		return 0, false
	}
	for name, values := range it.header {
		req.Header[http.CanonicalHeaderKey(name)] = values
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept-Encoding", acceptEncoding)
	resp, err := f.client.Do(req)
	if msg, ok := blockedMessage(err); ok {
		p.Error = msg
		return 0, false
	}
	if err != nil {
		msg, retr := describe(err)
		if msg == errorCanceled.Error() && it.ctx.Err() == nil {
			msg, retr = KindTimeout+": "+err.Error(), true
		}
		p.Error = msg
		return 0, retr
	}
	defer resp.Body.Close()
	res := it.resource
	res.Status, res.Header = resp.StatusCode, resp.Header.Clone()
	p.Status = resp.StatusCode
	if retriableStatus(resp.StatusCode) {
		msg, retr := statusFailure(resp)
		p.Error = msg
		drain(resp.Body)
		return parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), retr
	}
	buf := getBuffer()
	defer putBuffer(buf)
	wire, truncated, err := readBody(resp, f.cfg.MaxBytes, buf, nil)
	p.Bytes = wire
	if err != nil {
		msg, retr := describe(err)
		if be, ok := err.(*bodyError); ok {
			msg, retr = KindBody+": "+be.Error(), false
		}
		p.Error = msg
		return 0, retr
	}
	res.Body = append([]byte(nil), buf.Bytes()...)
	res.Truncated = truncated
	res.Header.Del("Content-Encoding")
	res.Header.Del("Content-Length")
	return 0, false
}
