package mirrorweb

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// Response is what the mirror answers for a URL.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// ProxyError is set when the host cannot be reached: the RFC 9209
	// error a proxy reports (dns_error, connection_refused,
	// connection_timeout). Status is then 502 or 504.
	ProxyError Down
	// Resource names what was served — a file of a tree as the URL of
	// its path, or the URL of a WARC record — so that two URLs of one
	// page (dir/ and dir/index.html) are known to be the same.
	Resource string
}

// Get answers a GET for an absolute URL, as the server would, without
// the delay of a host that times out.
func (w *Web) Get(rawURL string) *Response {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return status(http.StatusBadRequest)
	}
	return w.get(u)
}

func (w *Web) get(u *url.URL) *Response {
	name := canonicalHost(u.Scheme, u.Host)
	if kind, ok := w.opts.Down[name]; ok {
		return w.unreachable(kind)
	}
	h := w.hosts[name]
	if h == nil {
		return w.unreachable(DownDNS)
	}
	if u.Scheme != "http" {
		// The mirror serves plain http: nothing listens on 443.
		return w.unreachable(DownRefused)
	}
	if h.records != nil {
		if key, err := normalize(u.String()); err == nil {
			if e, ok := h.records[key]; ok {
				return replay(e, key)
			}
		}
	}
	if h.root == "" {
		return notFound()
	}
	return w.serveTree(h, u)
}

// unreachable is the answer of a proxy that cannot reach the host.
func (w *Web) unreachable(kind Down) *Response {
	st := http.StatusBadGateway
	if kind == DownTimeout {
		st = http.StatusGatewayTimeout
	}
	r := status(st)
	r.ProxyError = kind
	r.Header.Set("Proxy-Status", w.opts.Name+"; error="+string(kind))
	return r
}

func status(code int) *Response {
	h := http.Header{}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	return &Response{Status: code, Header: h, Body: []byte(http.StatusText(code) + "\n")}
}

func notFound() *Response {
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=utf-8")
	return &Response{Status: http.StatusNotFound, Header: h,
		Body: []byte("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>\n")}
}

// serveTree serves a file of a host's directory, as a static web server
// does: dir/ is dir/index.html (or a listing with AutoIndex), a
// directory without its slash is redirected, the query is ignored.
func (w *Web) serveTree(h *host, u *url.URL) *Response {
	p := u.Path
	if p == "" {
		p = "/"
	}
	clean := path.Clean("/" + p)
	slash := strings.HasSuffix(p, "/")
	if slash && clean != "/" {
		clean += "/"
	}
	fsPath := filepath.Join(h.root, filepath.FromSlash(clean))
	real, err := filepath.EvalSymlinks(fsPath)
	if err != nil || (real != h.root && !strings.HasPrefix(real, h.root+string(filepath.Separator))) {
		return notFound() // missing, a dangling link, or a link out of the tree
	}
	fi, err := os.Stat(real)
	if err != nil {
		return notFound()
	}
	if fi.IsDir() {
		if !slash {
			r := &Response{Status: http.StatusMovedPermanently, Header: http.Header{}}
			loc := &url.URL{Scheme: "http", Host: h.name, Path: clean + "/", RawQuery: u.RawQuery}
			r.Header.Set("Location", loc.String())
			r.Header.Set("Content-Type", "text/html; charset=utf-8")
			r.Body = []byte("<a href=\"" + html.EscapeString(loc.String()) + "\">Moved Permanently</a>\n")
			return r
		}
		for _, index := range []string{"index.html", "index.htm"} {
			if r := w.serveTree(h, &url.URL{Scheme: "http", Host: h.name, Path: clean + index}); r.Status == http.StatusOK {
				return r
			}
		}
		if !w.opts.AutoIndex {
			return notFound()
		}
		return listing(h, clean, real)
	}
	if slash {
		return notFound()
	}
	body, err := os.ReadFile(real)
	if err != nil {
		return notFound()
	}
	r := &Response{Status: http.StatusOK, Header: http.Header{}, Body: body, Resource: resource(h, real, false)}
	r.Header.Set("Content-Type", contentType(clean, body))
	r.Header.Set("Last-Modified", fi.ModTime().UTC().Format(http.TimeFormat))
	return r
}

// listing is the page of a directory without an index.
func listing(h *host, dir, real string) *Response {
	entries, err := os.ReadDir(real)
	if err != nil {
		return notFound()
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") {
			continue
		}
		if fi, err := os.Stat(filepath.Join(real, n)); err == nil && fi.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	title := html.EscapeString("Index of " + dir)
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body><h1>%s</h1><ul>\n", title, title)
	if dir != "/" {
		b.WriteString("<li><a href=\"../\">Parent Directory</a></li>\n")
	}
	for _, n := range names {
		ref := (&url.URL{Path: n}).EscapedPath()
		if strings.Contains(n, ":") {
			ref = "./" + ref
		}
		fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a></li>\n", html.EscapeString(ref), html.EscapeString(n))
	}
	b.WriteString("</ul></body></html>\n")
	r := &Response{Status: http.StatusOK, Header: http.Header{}, Body: b.Bytes(), Resource: resource(h, real, true)}
	r.Header.Set("Content-Type", "text/html; charset=utf-8")
	return r
}

// resource names a file of a host's tree by the URL of its real path
// (symbolic links resolved): a page linked into several places of a tree
// is one resource.
func resource(h *host, real string, dir bool) string {
	rel, err := filepath.Rel(h.root, real)
	if err != nil {
		rel = real
	}
	p := "/" + filepath.ToSlash(rel)
	if p == "/." {
		p = "/"
	} else if dir {
		p += "/"
	}
	return (&url.URL{Scheme: "http", Host: h.name, Path: p}).String()
}

// types are the media types of common extensions, so that answers do not
// depend on the machine's mime.types. No charset is added: pages are
// served as stored and declare their own.
var types = map[string]string{
	".html": "text/html", ".htm": "text/html", ".shtml": "text/html", ".xhtml": "application/xhtml+xml",
	".css": "text/css", ".js": "text/javascript", ".txt": "text/plain", ".xml": "application/xml",
	".json": "application/json", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".svg": "image/svg+xml", ".webp": "image/webp", ".ico": "image/x-icon",
	".pdf": "application/pdf", ".epub": "application/epub+zip", ".zip": "application/zip",
	".gz": "application/gzip", ".tar": "application/x-tar", ".ps": "application/postscript",
}

// contentType is the type of a file by its extension; a name like
// index.html.en (a language variant) takes the type of the extension
// before the unknown one; a file with no known extension is sniffed.
func contentType(name string, body []byte) string {
	base := path.Base(name)
	if base == "robots.txt" {
		return "text/plain"
	}
	for i := 0; i < 2; i++ {
		ext := strings.ToLower(path.Ext(base))
		if ext == "" {
			break
		}
		if t, ok := types[ext]; ok {
			return t
		}
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
		base = strings.TrimSuffix(base, path.Ext(base))
	}
	t := http.DetectContentType(body)
	if strings.HasPrefix(t, "text/html") {
		return "text/html"
	}
	return t
}

// replay answers with a WARC record: a response record as captured
// (status, fields, payload; a chunked payload is de-chunked), a resource
// record as a 200 with its Content-Type.
func replay(e warcEntry, key string) *Response {
	rec, err := warc.ReadRecordAt(e.file.f, e.pos)
	if err != nil {
		r := status(http.StatusInternalServerError)
		r.Body = []byte(fmt.Sprintf("%s: %v\n", e.file.path, err))
		return r
	}
	if rec.Type == "resource" {
		r := &Response{Status: http.StatusOK, Header: http.Header{}, Body: rec.Block, Resource: key}
		ct := rec.Get("Content-Type")
		if ct == "" {
			ct = contentType(key, rec.Block)
		}
		r.Header.Set("Content-Type", ct)
		return r
	}
	head, payload, err := warc.SplitHTTP(rec.Block)
	if err != nil {
		r := status(http.StatusInternalServerError)
		r.Body = []byte(fmt.Sprintf("%s: %s: %v\n", e.file.path, key, err))
		return r
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(head)), nil)
	if err != nil {
		r := status(http.StatusInternalServerError)
		r.Body = []byte(fmt.Sprintf("%s: %s: %v\n", e.file.path, key, err))
		return r
	}
	resp.Body.Close()
	hdr := resp.Header.Clone()
	// ReadResponse takes Transfer-Encoding out of the header fields.
	if slices.Contains(resp.TransferEncoding, "chunked") || strings.EqualFold(hdr.Get("Transfer-Encoding"), "chunked") {
		if b, err := io.ReadAll(httputil.NewChunkedReader(bytes.NewReader(payload))); err == nil {
			payload = b
		}
	}
	for _, k := range []string{"Transfer-Encoding", "Content-Length", "Connection", "Keep-Alive"} {
		hdr.Del(k)
	}
	return &Response{Status: resp.StatusCode, Header: hdr, Body: payload, Resource: key}
}

// canonicalHost is the host name of a URL's authority without the
// scheme's default port.
func canonicalHost(scheme, hostport string) string {
	h := strings.ToLower(hostport)
	if strings.HasSuffix(h, ":80") && scheme != "https" || strings.HasSuffix(h, ":443") && scheme == "https" {
		h = h[:strings.LastIndexByte(h, ':')]
	}
	return strings.TrimSuffix(h, ".")
}

// normalize is the crawler's normal form of a URL (urlx), so that truth,
// WARC index and crawl records agree.
func normalize(raw string) (string, error) { return urlx.Normalize(raw) }

// hostOf is the host[:port] of a normalised URL.
func hostOf(u string) string {
	rest := u[strings.Index(u, "://")+3:]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}
