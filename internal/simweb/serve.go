package simweb

import (
	"bytes"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// Handler serves every virtual host of the web, both by Host header and
// as an HTTP forward proxy (absolute-form request URIs). Unknown hosts get
// 502, as from a proxy that cannot resolve them; CONNECT (https) gets 405.
func (w *Web) Handler() http.Handler { return http.HandlerFunc(w.serveHTTP) }

func (w *Web) serveHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		http.Error(rw, "simweb serves plain http only", http.StatusMethodNotAllowed)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rw.Header().Set("Allow", "GET, HEAD")
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	host := r.Host
	if r.URL.IsAbs() {
		host = r.URL.Host
	}
	t := w.resolve(host, r.URL.RequestURI())
	h := rw.Header()
	h.Set("Server", "simweb")
	h.Set("X-Simweb", "simulated")
	if t.s == nil {
		http.Error(rw, "simweb: no such host: "+host, http.StatusBadGateway)
		return
	}
	s := t.s
	if !w.cfg.NoFaults {
		if s.slow {
			select {
			case <-time.After(w.cfg.SlowLatency):
			case <-r.Context().Done():
				return
			}
		}
		if s.rateLimited && !s.limiter.allow(time.Now()) {
			w.retryLater(rw, http.StatusTooManyRequests)
			return
		}
		if s.flaky && t.status == 200 && !t.robots && s.firstTime(r.URL.RequestURI()) {
			w.retryLater(rw, http.StatusServiceUnavailable)
			return
		}
	}
	if status := w.staticFault(s, t, r.URL.Path); status != 0 {
		w.retryLater(rw, status)
		return
	}
	switch {
	case t.robots && t.status == 200:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		writeBody(rw, r, []byte(w.robotsTxt(s)))
		return
	case t.sitemap:
		h.Set("Content-Type", "application/xml")
		writeBody(rw, r, w.sitemap(s))
		return
	case t.location != "":
		h.Set("Location", t.location)
		rw.WriteHeader(t.status)
		return
	case t.status == 404:
		h.Set("Content-Type", "text/html; charset=utf-8")
		rw.WriteHeader(http.StatusNotFound)
		if r.Method == http.MethodGet {
			rw.Write([]byte("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1><p><a href=\"/\">Home</a></p></body></html>\n"))
		}
		return
	}
	body := w.pageBody(t, r.URL.Path)
	ct := "text/html"
	if s.gbk {
		body = toGBK(body)
		if s.decl&declHeader != 0 {
			ct = "text/html; charset=GBK"
		}
	} else if hashOf(w.cfg.Seed, s.host, "ct")%4 != 0 {
		ct = "text/html; charset=utf-8"
	}
	h.Set("Content-Type", ct)
	if s.gzip && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		h.Set("Vary", "Accept-Encoding")
		body = gzipped(body)
	}
	writeBody(rw, r, body)
}

var gzipPool = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return zw
}}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	zw := gzipPool.Get().(*gzip.Writer)
	zw.Reset(&out)
	zw.Write(b)
	zw.Close()
	gzipPool.Put(zw)
	return out.Bytes()
}

// pageBody renders the page a target names.
func (w *Web) pageBody(t target, path string) []byte {
	s := t.s
	switch {
	case s.kind == KindAds && t.kind == pHome, t.kind >= pCart:
		return w.renderSpecial(t)
	}
	sid := ""
	if s.sessions {
		sid = w.nextSession(s, t.sid, path)
	}
	return w.render(s, t.pi, sid)
}

// staticFault is the error status a page always answers with: every page
// of a dead host, and a fixed share of the pages of failing hosts.
func (w *Web) staticFault(s *site, t target, path string) int {
	if s.down {
		return http.StatusServiceUnavailable
	}
	if s.errPct > 0 && t.status == 200 && !t.robots && path != "/" &&
		int(hashOf(w.cfg.Seed, s.host, "5xx", path)%100) < s.errPct {
		return http.StatusInternalServerError
	}
	return 0
}

func (w *Web) retryLater(rw http.ResponseWriter, status int) {
	rw.Header().Set("Retry-After", strconv.Itoa(w.cfg.RetryAfter))
	http.Error(rw, http.StatusText(status), status)
}

func writeBody(rw http.ResponseWriter, r *http.Request, body []byte) {
	rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
	rw.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		rw.Write(body)
	}
}

// firstTime reports whether a flaky host sees this URI for the first time
// (and remembers it).
func (s *site) firstTime(uri string) bool {
	s.flakyMu.Lock()
	defer s.flakyMu.Unlock()
	if s.seen[uri] {
		return false
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[uri] = true
	return true
}

// toGBK encodes UTF-8 HTML as GBK; the few characters GBK lacks become
// '?', as with real legacy sites.
func toGBK(b []byte) []byte {
	// Encoders keep state: one per call.
	out, err := encoding.ReplaceUnsupported(simplifiedchinese.GBK.NewEncoder()).Bytes(b)
	if err != nil {
		return b
	}
	return out
}
