package render

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/focuscrawl/focuscrawl/internal/fetcher"
	"github.com/focuscrawl/focuscrawl/internal/record"
)

// interceptor answers every request of one tab: the page's own document
// from the fetch that already happened, its same-host scripts and data
// through the fetcher (politeness, robots.txt, address guard), and refuses
// the rest.
type interceptor struct {
	r      *Renderer
	page   *record.Page
	docURL string
	host   string // the page's politeness key (host[:port])
	// ctx bounds the fetches (the settle deadline); tab is for answers.
	ctx, tab  context.Context
	docServed atomic.Bool
	pending   atomic.Int64
	requests  atomic.Int64
	// done is when the last request was answered (unix nanoseconds).
	done atomic.Int64
}

// lastDone is when the last request of the page was answered.
func (ic *interceptor) lastDone() time.Time { return time.Unix(0, ic.done.Load()) }

func newInterceptor(r *Renderer, p *record.Page, ctx, tab context.Context) *interceptor {
	doc := p.URL
	if p.FinalURL != "" {
		doc = p.FinalURL
	}
	if u, err := url.Parse(doc); err == nil {
		u.Fragment, u.RawFragment = "", ""
		doc = u.String()
	}
	return &interceptor{r: r, page: p, docURL: doc, host: hostKey(doc), ctx: ctx, tab: tab}
}

// start opens the tab and turns interception on for all its requests.
func (ic *interceptor) start() error {
	events := chromedp.Events(ic.tab, fetch.RequestPaused)
	if _, err := chromedp.Call(ic.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		return err
	}
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			ic.pending.Add(1)
			go ic.handle(ev)
		}
	}()
	return nil
}

// blockedTypes are never requested: they add nothing to the text and the
// links of a page, and cost the host requests.
var blockedTypes = map[network.ResourceType]bool{
	network.ResourceTypeImage: true, network.ResourceTypeMedia: true, network.ResourceTypeFont: true,
	network.ResourceTypeStylesheet: true, network.ResourceTypeTextTrack: true, network.ResourceTypePrefetch: true,
	network.ResourceTypeEventSource: true, network.ResourceTypeWebSocket: true, network.ResourceTypeManifest: true,
	network.ResourceTypeSignedExchange: true, network.ResourceTypePing: true, network.ResourceTypeCSPViolationReport: true,
	network.ResourceTypePreflight: true, network.ResourceTypeFedCM: true,
	// Other is the favicon, beacons and the like.
	network.ResourceTypeOther: true,
}

// handle answers one paused request.
func (ic *interceptor) handle(ev fetch.EventRequestPaused) {
	defer func() {
		ic.done.Store(time.Now().UnixNano())
		ic.pending.Add(-1)
	}()
	req := ev.Request
	if req == nil {
		return
	}
	raw := req.URL
	if ev.ResourceType == network.ResourceTypeDocument && sameURL(raw, ic.docURL) && ic.docServed.CompareAndSwap(false, true) {
		ic.fulfill(ev.RequestID, &fetcher.Resource{Status: http.StatusOK,
			Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(ic.page.HTML)})
		return
	}
	u, err := url.Parse(raw)
	switch {
	case blockedTypes[ev.ResourceType], err != nil, u.Scheme != "http" && u.Scheme != "https",
		req.Method != http.MethodGet,
		!ic.r.cfg.ThirdParty && hostKey(raw) != ic.host:
		ic.r.stats.Blocked.Add(1)
		ic.failReq(ev.RequestID, network.ErrorReasonBlockedByClient)
		return
	}
	h := http.Header{}
	for _, name := range []string{"Accept", "Referer", "Content-Type", "X-Requested-With"} {
		if v, ok := headerValue(req.Headers, name); ok {
			h.Set(name, v)
		}
	}
	ic.requests.Add(1)
	ic.r.stats.Requests.Add(1)
	res, err := ic.r.res.FetchResource(ic.ctx, raw, h)
	if err != nil {
		reason := network.ErrorReasonFailed
		switch kind := fetcher.ErrorKind(err.Error()); {
		case fetcher.IsRobots(err.Error()), kind == fetcher.KindBlocked:
			reason = network.ErrorReasonBlockedByClient
			ic.r.stats.Blocked.Add(1)
		case kind == fetcher.KindTimeout || kind == fetcher.KindCanceled:
			reason = network.ErrorReasonTimedOut
		}
		ic.failReq(ev.RequestID, reason)
		return
	}
	ic.fulfill(ev.RequestID, res)
}

// hopHeaders are not handed to the browser: the body is already whole
// and decoded.
var hopHeaders = map[string]bool{"Connection": true, "Keep-Alive": true, "Transfer-Encoding": true,
	"Content-Encoding": true, "Content-Length": true, "Upgrade": true}

func (ic *interceptor) fulfill(id fetch.RequestID, res *fetcher.Resource) {
	var hs []*fetch.HeaderEntry
	for name, values := range res.Header {
		if hopHeaders[http.CanonicalHeaderKey(name)] {
			continue
		}
		for _, v := range values {
			hs = append(hs, &fetch.HeaderEntry{Name: name, Value: v})
		}
	}
	ctx, cancel := context.WithTimeout(ic.tab, 5*time.Second)
	defer cancel()
	chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: id,
		ResponseCode: int64(res.Status), ResponseHeaders: hs, Body: res.Body})
}

func (ic *interceptor) failReq(id fetch.RequestID, reason network.ErrorReason) {
	ctx, cancel := context.WithTimeout(ic.tab, 5*time.Second)
	defer cancel()
	chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: reason})
}

// hostKey is the politeness key of a URL, as the fetcher makes it: the
// lower-case host, with its port when the URL gives one.
func hostKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if p := u.Port(); p != "" {
		def := map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
		if p != def {
			return net.JoinHostPort(h, p)
		}
	}
	return h
}

// sameURL compares two URLs without their fragments.
func sameURL(a, b string) bool {
	cut := func(s string) string { s, _, _ = strings.Cut(s, "#"); return s }
	return cut(a) == cut(b)
}

// headerValue reads a request header the browser reported.
func headerValue(h network.Headers, name string) (string, bool) {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			s, ok := v.(string)
			return s, ok
		}
	}
	return "", false
}
