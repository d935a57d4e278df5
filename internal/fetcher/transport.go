package fetcher

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/netguard"
	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// newTransport builds the HTTP/1.1 + HTTP/2 transport. Its idle pool is
// sized to the concurrency: Go pools idle connections per proxy address
// when a proxy is set, and the default of 2 per host would make a fetcher
// behind a proxy reconnect for almost every page.
//
// Every dial is checked by netguard (no loopback, private, link-local, …
// unless AllowPrivate), except dials to the proxy and to --resolve
// targets, which the user named.
func newTransport(cfg Config) (*http.Transport, error) {
	dialer := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}
	var trusted []string
	if cfg.Proxy != "" {
		trusted = append(trusted, netguard.ProxyAddr(cfg.Proxy))
	}
	guarded := netguard.Policy{AllowPrivate: cfg.AllowPrivate}.Dialer(dialer, trusted...)
	dial := guarded
	if len(cfg.Resolve) > 0 {
		dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
			if to, ok := resolveAddr(cfg.Resolve, addr); ok {
				return dialer.DialContext(ctx, network, to)
			}
			return guarded(ctx, network, addr)
		}
	}
	proxy := http.ProxyFromEnvironment
	if cfg.Proxy != "" {
		u, err := url.Parse(cfg.Proxy)
		if err != nil {
			return nil, fmt.Errorf("proxy %q: %w", cfg.Proxy, err)
		}
		proxy = http.ProxyURL(u)
	}
	return &http.Transport{
		Proxy:                 proxy,
		DialContext:           dial,
		TLSClientConfig:       &tls.Config{InsecureSkipVerify: cfg.Insecure},
		TLSHandshakeTimeout:   cfg.TLSTimeout,
		ResponseHeaderTimeout: cfg.HeaderTimeout,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
		DisableCompression:    true, // readBody decodes, with a size cap
		MaxIdleConns:          max(4*cfg.Concurrency, 100),
		MaxIdleConnsPerHost:   max(cfg.Concurrency, cfg.PerHost),
		IdleConnTimeout:       90 * time.Second,
		// https through a proxy: a CONNECT refused with Proxy-Status says why.
		OnProxyConnectResponse: proxyConnectError,
	}, nil
}

// resolveAddr applies --resolve entries to a dial address: an exact
// host:port entry first, then host:*, *:port and *:*. ok says whether an
// entry applied.
func resolveAddr(m map[string]string, addr string) (to string, ok bool) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, false
	}
	host = strings.ToLower(host)
	for _, k := range []string{host + ":" + port, host + ":*", "*:" + port, "*:*"} {
		if to, ok := m[k]; ok {
			if _, _, err := net.SplitHostPort(to); err == nil {
				return to, true
			}
			return net.JoinHostPort(strings.Trim(to, "[]"), port), true
		}
	}
	return addr, false
}

// warcTransport copies every exchange to the WARC writer: the request
// head, the response head and the body as it came over the wire (still
// content-encoded), written when the body is closed. Redirect hops are
// recorded too.
type warcTransport struct {
	base http.RoundTripper
	f    *Fetcher
}

func (t *warcTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	date := time.Now()
	var ip string
	trace := &httptrace.ClientTrace{GotConn: func(ci httptrace.GotConnInfo) {
		if a, ok := ci.Conn.RemoteAddr().(*net.TCPAddr); ok {
			ip = a.IP.String()
		}
	}}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	resp.Body = &recordingBody{rc: resp.Body, t: t, req: req, resp: resp, date: date, ip: ip,
		limit: t.f.cfg.MaxBytes}
	return resp, nil
}

// recordingBody keeps what is read of a body, up to limit bytes.
type recordingBody struct {
	rc    io.ReadCloser
	t     *warcTransport
	req   *http.Request
	resp  *http.Response
	date  time.Time
	ip    string
	limit int64
	buf   bytes.Buffer
	eof   bool
	cut   bool
	once  sync.Once
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if room := b.limit - int64(b.buf.Len()); room > 0 {
		b.buf.Write(p[:min(int64(n), room)])
		if int64(n) > room {
			b.cut = true
		}
	} else if n > 0 {
		b.cut = true
	}
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func (b *recordingBody) Close() error {
	err := b.rc.Close()
	b.once.Do(b.write)
	return err
}

func (b *recordingBody) write() {
	ex := warc.Exchange{
		TargetURI:    b.req.URL.String(),
		Date:         b.date,
		IP:           b.ip,
		Request:      requestHead(b.req),
		ResponseHead: responseHead(b.resp),
		Body:         b.buf.Bytes(),
	}
	switch {
	case b.cut:
		ex.Truncated = "length"
	case !b.eof && b.resp.ContentLength != int64(b.buf.Len()):
		ex.Truncated = "unspecified" // not read to the end (unwanted type, error status)
	}
	if err := b.t.f.cfg.WARC.WriteExchange(ex); err != nil {
		b.t.f.warcMu.Lock()
		if b.t.f.warcErr == nil {
			b.t.f.warcErr = err
		}
		b.t.f.warcMu.Unlock()
	}
}

// requestHead renders a request the way it went out, in HTTP/1.1 form.
func requestHead(req *http.Request) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.Method, req.URL.RequestURI(), req.URL.Host)
	req.Header.Write(&b)
	b.WriteString("\r\n")
	return b.Bytes()
}

// responseHead renders the status line and headers in HTTP/1.1 form.
// Transfer-Encoding is dropped: the body is stored de-chunked.
func responseHead(resp *http.Response) []byte {
	var b bytes.Buffer
	status := resp.Status // "200 OK"
	if status == "" {
		status = fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	b.WriteString("HTTP/1.1 " + status + "\r\n")
	resp.Header.WriteSubset(&b, map[string]bool{"Transfer-Encoding": true})
	b.WriteString("\r\n")
	return b.Bytes()
}
