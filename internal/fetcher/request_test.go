package fetcher

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

const zhPage = "<html><head><title>森林经营</title></head><body><p>国家林业和草原局发布了关于进一步加强森林经营工作的通知。" +
	"各地要科学编制森林经营方案，严格执行造林、抚育、间伐等技术规程，提高宜林地造林质量。</p></body></html>"

func compress(t *testing.T, coding string, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "deflate": // zlib-wrapped, as RFC 9110 says
		w = zlib.NewWriter(&buf)
	case "raw-deflate":
		w, _ = flate.NewWriter(&buf, 6)
	case "br":
		w = brotli.NewWriter(&buf)
	case "zstd":
		w, _ = zstd.NewWriter(&buf)
	default:
		t.Fatalf("coding %q", coding)
	}
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func fetchOne(t *testing.T, h http.Handler, cfg Config, path string) record.Page {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	cfg.IgnoreRobots = true
	f := newFetcher(t, srv, cfg)
	return f.Fetch(context.Background(), record.URL{URL: srv.URL + path})
}

func TestContentEncodings(t *testing.T) {
	for _, coding := range []string{"gzip", "deflate", "raw-deflate", "br", "zstd", "identity"} {
		t.Run(coding, func(t *testing.T) {
			body := []byte(zhPage)
			header := coding
			if coding != "identity" {
				body = compress(t, coding, body)
			}
			if coding == "raw-deflate" {
				header = "deflate"
			}
			p := fetchOne(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !strings.Contains(r.Header.Get("Accept-Encoding"), "zstd") {
					t.Errorf("Accept-Encoding %q", r.Header.Get("Accept-Encoding"))
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Encoding", header)
				w.Write(body)
			}), testConfig(), "/")
			if p.Error != "" || p.HTML != zhPage {
				t.Errorf("error %q, html %.60q", p.Error, p.HTML)
			}
			if p.Bytes != int64(len(body)) {
				t.Errorf("bytes %d, want %d received", p.Bytes, len(body))
			}
		})
	}
}

func TestCorruptBodyIsAnError(t *testing.T) {
	p := fetchOne(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		gz := compress(t, "gzip", []byte(strings.Repeat("<p>x</p>", 1000)))
		gz[len(gz)/2] ^= 0xff
		gz[len(gz)/2+1] ^= 0xff
		w.Write(gz)
	}), testConfig(), "/")
	if ErrorKind(p.Error) != KindBody {
		t.Errorf("error %q, want a body error", p.Error)
	}
}

func TestGzipBombEndsTruncated(t *testing.T) {
	// 200 gzip members of 1 MiB of spaces each: 200 MiB decoded from
	// about 200 KB, read by gzip readers as one stream. (Spaces, not
	// zeros: zeros served as text/html are "not html: binary".)
	member := compress(t, "gzip", bytes.Repeat([]byte(" "), 1<<20))
	bomb := bytes.Repeat(member, 200)
	cfg := testConfig()
	cfg.MaxBytes = 1 << 20
	for _, ct := range []string{"text/html", ""} {
		p := fetchOne(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		}), cfg, "/")
		if !p.Truncated || p.Error != "" {
			t.Errorf("content type %q: truncated %v, error %q", ct, p.Truncated, p.Error)
		}
		if ct != "" && len(p.HTML) != int(cfg.MaxBytes) {
			t.Errorf("html is %d bytes, want the cap %d", len(p.HTML), cfg.MaxBytes)
		}
	}
}

func TestMaxBytesOnTheWire(t *testing.T) {
	cfg := testConfig()
	cfg.MaxBytes = 1000
	p := fetchOne(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(strings.Repeat("a", 5000)))
	}), cfg, "/")
	if !p.Truncated || len(p.HTML) != 1000 || p.Bytes != 1000 {
		t.Errorf("truncated %v, %d bytes html, bytes %d", p.Truncated, len(p.HTML), p.Bytes)
	}
	p = fetchOne(t, htmlHandler(strings.Repeat("b", 1000)), cfg, "/")
	if p.Truncated || len(p.HTML) != 1000 {
		t.Errorf("exactly the cap: truncated %v, %d bytes", p.Truncated, len(p.HTML))
	}
}

func TestRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusMovedPermanently) })
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/c?x=1", http.StatusFound) })
	mux.HandleFunc("/c", htmlHandler("<p>c</p>"))
	mux.HandleFunc("/loop1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", http.StatusFound) })
	mux.HandleFunc("/loop2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop1", http.StatusFound) })
	mux.HandleFunc("/self", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/self", http.StatusFound) })
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/chain/"), "%d", &n)
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n+1), http.StatusFound)
	})
	mux.HandleFunc("/ftp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.com/", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cfg := testConfig()
	cfg.IgnoreRobots = true
	cfg.Retries = 0
	f := newFetcher(t, srv, cfg)
	fetch := func(path string) record.Page {
		return f.Fetch(context.Background(), record.URL{URL: srv.URL + path})
	}

	p := fetch("/a")
	want := []string{srv.URL + "/b", srv.URL + "/c?x=1"}
	if p.Error != "" || p.FinalURL != srv.URL+"/c?x=1" || strings.Join(p.Redirects, " ") != strings.Join(want, " ") || p.HTML != "<p>c</p>" {
		t.Errorf("chain: error %q final %q redirects %q", p.Error, p.FinalURL, p.Redirects)
	}
	for _, path := range []string{"/loop1", "/self"} {
		if p := fetch(path); p.Error != "redirect: redirect loop" {
			t.Errorf("%s: error %q, want a redirect loop", path, p.Error)
		}
	}
	p = fetch("/chain/0")
	if p.Error != "redirect: too many redirects" || len(p.Redirects) != 11 {
		t.Errorf("long chain: error %q after %d hops", p.Error, len(p.Redirects))
	}
	if p := fetch("/chain/1"); p.Error != "" && !strings.Contains(p.Error, "too many") {
		t.Errorf("unexpected error %q", p.Error)
	}
	if p := fetch("/ftp"); ErrorKind(p.Error) != KindRedirect {
		t.Errorf("redirect to ftp: error %q", p.Error)
	}
}

func TestTenRedirectsAreFollowed(t *testing.T) {
	p := fetchOne(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/%d", &n)
		if n == 10 {
			htmlHandler("<p>end</p>")(w, r)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/%d", n+1), http.StatusFound)
	}), testConfig(), "/0")
	if p.Error != "" || len(p.Redirects) != 10 || p.HTML != "<p>end</p>" {
		t.Errorf("error %q, %d hops", p.Error, len(p.Redirects))
	}
}

func TestContentTypeFilter(t *testing.T) {
	serve := func(ct string, body string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ct != "-" {
				w.Header().Set("Content-Type", ct)
			} else {
				w.Header()["Content-Type"] = nil
			}
			io.WriteString(w, body)
		})
	}
	tests := []struct {
		name, ct, body string
		accept         []string
		wantHTML       bool
		wantType       string
	}{
		{"html", "text/html; charset=utf-8", "<p>x</p>", nil, true, "text/html"},
		{"xhtml", "application/xhtml+xml", "<p>x</p>", nil, true, "application/xhtml+xml"},
		{"png refused", "image/png", "\x89PNG", nil, false, "image/png"},
		{"pdf refused", "application/pdf", "%PDF-1.4", nil, false, "application/pdf"},
		{"plain refused", "text/plain", "hello", nil, false, "text/plain"},
		{"plain accepted", "text/plain", "hello", []string{"text/html", "text/plain"}, true, "text/plain"},
		{"text wildcard", "text/csv", "a,b", []string{"text/*"}, true, "text/csv"},
		{"everything, binary kept out of html", "image/png", "\x89PNG\r\n", []string{"*/*"}, false, "image/png"},
		{"no header, sniffed html", "-", "<!DOCTYPE html><html><body>x</body></html>", nil, true, "text/html"},
		{"no header, sniffed binary", "-", "\x00\x01\x02\x03binary", nil, false, "application/octet-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Accept = tt.accept
			p := fetchOne(t, serve(tt.ct, tt.body), cfg, "/")
			if p.Status != 200 || p.Error != "" || p.ContentType != tt.wantType {
				t.Errorf("status %d error %q type %q", p.Status, p.Error, p.ContentType)
			}
			if (p.HTML != "") != tt.wantHTML {
				t.Errorf("html %q, want body kept: %v", p.HTML, tt.wantHTML)
			}
		})
	}
}

func TestCharsetDecoding(t *testing.T) {
	gbk, _ := simplifiedchinese.GBK.NewEncoder().Bytes([]byte(zhPage))
	tests := []struct {
		name, ct    string
		body        []byte
		wantCharset string
	}{
		{"gbk undeclared", "text/html", gbk, "gbk"},
		{"gbk in header", "text/html; charset=GB2312", gbk, "gbk"},
		{"utf-8", "text/html; charset=utf-8", []byte(zhPage), "utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fetchOne(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.ct)
				w.Write(tt.body)
			}), testConfig(), "/")
			if p.HTML != zhPage || p.Charset != tt.wantCharset {
				t.Errorf("charset %q, html %.80q", p.Charset, p.HTML)
			}
			if !utf8.ValidString(p.HTML) {
				t.Error("html is not valid UTF-8")
			}
		})
	}
}

func TestStatusErrorsAndTimeouts(t *testing.T) {
	cfg := testConfig()
	cfg.Retries = 0
	cfg.Timeout = 300 * time.Millisecond
	tests := []struct {
		name    string
		h       http.HandlerFunc
		status  int
		wantErr string
	}{
		{"404", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, 404, "http 404"},
		{"500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }, 500, "http 500"},
		{"slow headers", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(20 * time.Second):
			case <-r.Context().Done():
			}
		}, 0, "timeout"},
		{"slow body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>"))
			w.(http.Flusher).Flush()
			select {
			case <-time.After(20 * time.Second):
			case <-r.Context().Done():
			}
		}, 200, "timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			p := fetchOne(t, tt.h, cfg, "/")
			if p.Status != tt.status || ErrorKind(p.Error) != tt.wantErr {
				t.Errorf("status %d error %q, want %d %q", p.Status, p.Error, tt.status, tt.wantErr)
			}
			if p.HTML != "" {
				t.Errorf("error page kept html %q", p.HTML)
			}
			// The server would hold on for 20 s: well under that proves the
			// timeout ended the request, with room for a loaded machine.
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("took %v with a %v timeout", d, cfg.Timeout)
			}
		})
	}
}

func TestInvalidURLsBecomeErrorRecords(t *testing.T) {
	f := newFetcher(t, nil, testConfig())
	for _, raw := range []string{
		"", "ftp://example.com/", "mailto:a@b.c", "http://", "http:///path", "example.com/no-scheme",
		"http://exa mple.com/", "http://example.com/\xff\xfe", "http://user:pw@example.com/",
		"http://" + strings.Repeat("a", MaxURLLength) + ".com/", "http://[::1/",
	} {
		u := record.URL{URL: raw, Lineage: record.Lineage{Depth: 3, Parent: "p"}, Meta: record.Meta(`{"k":"v"}`)}
		p := f.Fetch(context.Background(), u)
		if ErrorKind(p.Error) != KindInvalid {
			t.Errorf("%.40q: error %q, want invalid url", raw, p.Error)
		}
		if p.URL != raw || p.Depth != 3 || p.Parent != "p" || string(p.Meta) != `{"k":"v"}` {
			t.Errorf("%.40q: lineage or meta lost: %+v", raw, p.Lineage)
		}
	}
}

func TestLineageAndMetaCarriedOver(t *testing.T) {
	srv := httptest.NewServer(htmlHandler("<p>x</p>"))
	defer srv.Close()
	f := newFetcher(t, srv, testConfig())
	in := record.URL{URL: hostURL(srv, "lin.test", "/"), Lineage: record.Lineage{Depth: 2, Priority: 0.8,
		Parent: "http://lin.test/", Anchor: "林业", Inherited: 0.31, Site: "lin.test"}, Meta: record.Meta(`{"job":7,"tags":["a"]}`)}
	p := f.Fetch(context.Background(), in)
	if p.Lineage != in.Lineage || string(p.Meta) != string(in.Meta) || p.Error != "" {
		t.Errorf("got lineage %+v meta %s error %q", p.Lineage, p.Meta, p.Error)
	}
	if p.FetchedAt.IsZero() || p.FinalURL != "" {
		t.Errorf("fetched_at %v final_url %q", p.FetchedAt, p.FinalURL)
	}
}

func TestResolveAndProxy(t *testing.T) {
	var seenHost string
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seenHost = r.Host
		htmlHandler("<p>site</p>")(w, r)
	}))
	defer site.Close()
	siteAddr := site.Listener.Addr().String()

	t.Run("resolve exact with port", func(t *testing.T) {
		cfg := testConfig()
		cfg.IgnoreRobots = true
		cfg.Resolve, _ = ParseResolve([]string{"www.forestry.test:80:" + siteAddr})
		f := newFetcher(t, nil, cfg)
		p := f.Fetch(context.Background(), record.URL{URL: "http://www.forestry.test/"})
		if p.Error != "" || seenHost != "www.forestry.test" {
			t.Errorf("error %q, server saw Host %q", p.Error, seenHost)
		}
	})
	t.Run("resolve wildcard", func(t *testing.T) {
		cfg := testConfig()
		cfg.IgnoreRobots = true
		cfg.Resolve, _ = ParseResolve([]string{"*:80:" + siteAddr})
		f := newFetcher(t, nil, cfg)
		p := f.Fetch(context.Background(), record.URL{URL: "http://any.example.cn/page"})
		if p.Error != "" || seenHost != "any.example.cn" {
			t.Errorf("error %q, server saw Host %q", p.Error, seenHost)
		}
	})
	t.Run("proxy", func(t *testing.T) {
		var proxied string
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !r.URL.IsAbs() {
				http.Error(w, "not a proxy request", http.StatusBadRequest)
				return
			}
			proxied = r.URL.String()
			io.WriteString(w, "<p>via proxy</p>")
		}))
		defer proxy.Close()
		cfg := testConfig()
		cfg.IgnoreRobots = true
		cfg.Proxy = proxy.URL
		f := newFetcher(t, nil, cfg)
		p := f.Fetch(context.Background(), record.URL{URL: "http://www.virtual.test/a?b=1"})
		if p.Error != "" || p.HTML != "<p>via proxy</p>" || proxied != "http://www.virtual.test/a?b=1" {
			t.Errorf("error %q html %q proxied %q", p.Error, p.HTML, proxied)
		}
	})
}

func TestParseResolve(t *testing.T) {
	good := map[string][2]string{
		"a.test:80:127.0.0.1":       {"a.test:80", "127.0.0.1"},
		"A.Test:443:127.0.0.1:8443": {"a.test:443", "127.0.0.1:8443"},
		"*:80:10.0.0.1":             {"*:80", "10.0.0.1"},
		"*:*:127.0.0.1:9":           {"*:*", "127.0.0.1:9"},
		"[::1]:80:[::1]:8080":       {"::1:80", "[::1]:8080"},
		"b.test:8080:::1":           {"b.test:8080", "::1"},
	}
	for in, want := range good {
		m, err := ParseResolve([]string{in})
		if err != nil || m[want[0]] != want[1] {
			t.Errorf("ParseResolve(%q) = %v, %v; want %s -> %s", in, m, err, want[0], want[1])
		}
	}
	for _, bad := range []string{"a.test", "a.test:80", "a.test:http:", ":80:127.0.0.1", "a.test:80:not-an-ip", "a.test:99999:127.0.0.1", "a.test:80:127.0.0.1:x"} {
		if _, err := ParseResolve([]string{bad}); err == nil {
			t.Errorf("ParseResolve(%q) accepted", bad)
		}
	}
	m := map[string]string{"a.test:80": "1.1.1.1", "*:443": "2.2.2.2:8443", "*:*": "3.3.3.3"}
	for addr, want := range map[string]string{"a.test:80": "1.1.1.1:80", "b.test:443": "2.2.2.2:8443", "c.test:81": "3.3.3.3:81"} {
		if got, _ := resolveAddr(m, addr); got != want {
			t.Errorf("resolveAddr(%q) = %q, want %q", addr, got, want)
		}
	}
}

func TestHTTP2AndInsecure(t *testing.T) {
	var proto string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto = r.Proto
		htmlHandler("<p>h2</p>")(w, r)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	defer srv.Close()
	u, _ := url.Parse(srv.URL)

	cfg := testConfig()
	cfg.IgnoreRobots = true
	cfg.Retries = 0
	cfg.AllowPrivate = true // srv.URL is on loopback
	f := newFetcher(t, nil, cfg)
	if p := f.Fetch(context.Background(), record.URL{URL: srv.URL}); ErrorKind(p.Error) != KindTLS {
		t.Errorf("self-signed certificate accepted without --insecure: error %q", p.Error)
	}
	cfg.Insecure = true
	cfg.Resolve, _ = ParseResolve([]string{"secure.test:" + u.Port() + ":127.0.0.1"})
	f = newFetcher(t, nil, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: "https://secure.test:" + u.Port() + "/"})
	if p.Error != "" || proto != "HTTP/2.0" {
		t.Errorf("error %q, protocol %q", p.Error, proto)
	}
}

func TestCookieRedirectBackIsNotALoop(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			if _, err := r.Cookie("checked"); err != nil {
				http.SetCookie(w, &http.Cookie{Name: "checked", Value: "1", Path: "/"})
				http.Redirect(w, r, "/check", http.StatusFound)
				return
			}
			htmlHandler("<p>content</p>")(w, r)
		case "/check":
			http.Redirect(w, r, "/page", http.StatusFound)
		case "/forever": // sets a cookie every time, but never lets in
			http.SetCookie(w, &http.Cookie{Name: "n", Value: "x", Path: "/"})
			http.Redirect(w, r, "/forever2", http.StatusFound)
		case "/forever2":
			http.Redirect(w, r, "/forever", http.StatusFound)
		}
	})
	for _, cookies := range []bool{true, false} {
		cfg := testConfig()
		cfg.Cookies = cookies
		cfg.Retries = 0
		p := fetchOne(t, h, cfg, "/page")
		if cookies && (p.Error != "" || p.HTML != "<p>content</p>" || len(p.Redirects) != 2) {
			t.Errorf("with cookies: error %q html %q redirects %q", p.Error, p.HTML, p.Redirects)
		}
		if !cookies && p.Error != "redirect: redirect loop" {
			t.Errorf("without cookies: error %q, want a loop", p.Error)
		}
		if p := fetchOne(t, h, cfg, "/forever"); p.Error != "redirect: redirect loop" {
			t.Errorf("cookies %v, endless cookie redirects: error %q", cookies, p.Error)
		}
	}
}

func TestExtraHeaders(t *testing.T) {
	var got http.Header
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		htmlHandler("<p>x</p>")(w, r)
	})
	cfg := testConfig()
	var err error
	cfg.Header, err = ParseHeaders([]string{"Accept-Language: zh-CN,zh;q=0.9", "Referer: http://portal.test/", "User-Agent: mybot/2.0"})
	if err != nil {
		t.Fatal(err)
	}
	if p := fetchOne(t, h, cfg, "/"); p.Error != "" {
		t.Fatal(p.Error)
	}
	if got.Get("Accept-Language") != "zh-CN,zh;q=0.9" || got.Get("Referer") != "http://portal.test/" || got.Get("User-Agent") != "mybot/2.0" {
		t.Errorf("headers sent: %v", got)
	}
	if got.Get("Accept-Encoding") != acceptEncoding {
		t.Errorf("Accept-Encoding %q", got.Get("Accept-Encoding"))
	}
	for _, bad := range []string{"NoColon", ": empty name", "Bad Name: x", "X: a\nb"} {
		if _, err := ParseHeaders([]string{bad}); err == nil {
			t.Errorf("ParseHeaders(%q) accepted", bad)
		}
	}
	cfg.Header = http.Header{"Accept-Encoding": {"identity"}}
	if _, err := New(cfg); err == nil {
		t.Error("Accept-Encoding accepted in Config.Header")
	}
}

func TestPhaseTimeouts(t *testing.T) {
	// A server that accepts connections and never says a word.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	}()
	tests := []struct {
		name, scheme string
		set          func(*Config)
		want         string
	}{
		{"tls handshake", "https", func(c *Config) { c.TLSTimeout = 200 * time.Millisecond }, "TLS handshake timeout"},
		{"response headers", "http", func(c *Config) { c.HeaderTimeout = 200 * time.Millisecond }, "awaiting response headers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.IgnoreRobots = true
			cfg.Retries = 0
			cfg.Timeout = 5 * time.Second
			cfg.AllowPrivate = true // ln is on loopback
			tt.set(&cfg)
			f := newFetcher(t, nil, cfg)
			start := time.Now()
			p := f.Fetch(context.Background(), record.URL{URL: tt.scheme + "://" + ln.Addr().String() + "/"})
			if ErrorKind(p.Error) != KindTimeout || !strings.Contains(p.Error, tt.want) {
				t.Errorf("error %q, want a %s timeout", p.Error, tt.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v: the phase timeout did not apply", d)
			}
		})
	}
}
