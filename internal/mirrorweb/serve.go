package mirrorweb

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// Handler serves the mirror both as an HTTP forward proxy (absolute-form
// request URIs, what fetch --proxy sends) and by Host header. Unknown
// hosts answer 502 with Proxy-Status error=dns_error; hosts declared down
// answer 502 connection_refused or, after Options.DownDelay, 504
// connection_timeout. CONNECT is answered the same way (502 for every
// host: the mirror serves plain http only). When log is not nil, every
// request is written to it as one JSON line.
func (w *Web) Handler(log io.Writer) http.Handler {
	var lw *requestLog
	if log != nil {
		lw = &requestLog{w: log}
	}
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		resp, mode := w.answer(r)
		if resp.ProxyError == DownTimeout {
			t := time.NewTimer(w.opts.DownDelay)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
			}
		}
		h := rw.Header()
		for k, v := range resp.Header {
			h[k] = v
		}
		h.Set("Server", "simweb-mirror")
		if resp.Status != http.StatusNotModified && resp.Status >= 200 {
			h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
		}
		rw.WriteHeader(resp.Status)
		if r.Method != http.MethodHead {
			rw.Write(resp.Body)
		}
		if lw != nil {
			lw.add(logLine{Time: start.UTC().Format(time.RFC3339Nano), Mode: mode, Method: r.Method,
				Host: hostKey(r), URI: r.RequestURI, Status: resp.Status, Bytes: len(resp.Body),
				Ms: float64(time.Since(start).Microseconds()) / 1000, Error: string(resp.ProxyError)})
		}
	})
}

// answer is the response to a request, and whether it came as a proxy
// request or by Host header.
func (w *Web) answer(r *http.Request) (*Response, string) {
	if r.Method == http.MethodConnect {
		name := canonicalHost("https", r.Host)
		if kind, ok := w.opts.Down[name]; ok {
			return w.unreachable(kind), "connect"
		}
		if w.hosts[name] == nil {
			return w.unreachable(DownDNS), "connect"
		}
		return w.unreachable(DownRefused), "connect"
	}
	mode := "host"
	u := *r.URL
	if u.IsAbs() {
		mode = "proxy"
	} else {
		u.Scheme, u.Host = "http", r.Host
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		resp := status(http.StatusMethodNotAllowed)
		resp.Header.Set("Allow", "GET, HEAD")
		return resp, mode
	}
	return w.get(&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}), mode
}

func hostKey(r *http.Request) string {
	if r.URL.IsAbs() {
		return canonicalHost(r.URL.Scheme, r.URL.Host)
	}
	return canonicalHost("http", r.Host)
}

// logLine is one request of the request log.
type logLine struct {
	Time   string  `json:"time"`
	Mode   string  `json:"mode"`
	Method string  `json:"method"`
	Host   string  `json:"host"`
	URI    string  `json:"uri"`
	Status int     `json:"status"`
	Bytes  int     `json:"bytes"`
	Ms     float64 `json:"ms"`
	Error  string  `json:"error,omitempty"`
}

// requestLog writes log lines one at a time.
type requestLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *requestLog) add(line logLine) {
	b, _ := json.Marshal(line)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(append(b, '\n'))
}
