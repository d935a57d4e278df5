package mirrorweb

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// Down is how a host declared down fails.
type Down string

// The ways a host can be down, named by the RFC 9209 Proxy-Status error
// a proxy reports for them.
const (
	DownDNS     Down = "dns_error"
	DownRefused Down = "connection_refused"
	DownTimeout Down = "connection_timeout"
)

// ParseDown reads a --down value: HOST, HOST=refused, HOST=timeout or
// HOST=dns (refused when no kind is given).
func ParseDown(v string) (host string, kind Down, err error) {
	host, k, _ := strings.Cut(v, "=")
	host = strings.ToLower(strings.TrimSpace(host))
	if host == "" {
		return "", "", fmt.Errorf("%q: no host", v)
	}
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "", "refused", "connection_refused":
		return host, DownRefused, nil
	case "timeout", "connection_timeout":
		return host, DownTimeout, nil
	case "dns", "dns_error":
		return host, DownDNS, nil
	}
	return "", "", fmt.Errorf("%q: kind %q is not refused, timeout or dns", v, k)
}

// Options change how a mirror answers.
type Options struct {
	// Down lists hosts that do not answer, and how.
	Down map[string]Down
	// DownDelay is how long the server waits before answering for a host
	// that times out (default 5s); the request's own cancellation ends
	// the wait sooner.
	DownDelay time.Duration
	// AutoIndex lists a directory that has no index.html, as Apache's
	// mod_autoindex does; without it such a directory is 404.
	AutoIndex bool
	// Name is the proxy's name in Proxy-Status (default "simweb").
	Name string
}

// Web is a mirror: hosts served from directory trees and WARC files.
type Web struct {
	opts  Options
	hosts map[string]*host
	warcs []*warcFile
}

// host is one served host name.
type host struct {
	name string
	// root is the directory tree (symlinks resolved), or "".
	root string
	// records are the host's WARC records by normalised URL.
	records map[string]warcEntry
}

// Source is one part of a mirror: a directory served as a host, or a
// WARC file.
type Source struct {
	Host string
	Dir  string
	WARC string
}

// ParseSource reads a source argument: HOST=DIR, or the path of a WARC
// file (.warc, .warc.gz). Relative paths are taken from base ("" for the
// working directory).
func ParseSource(arg, base string) (Source, error) {
	arg = strings.TrimSpace(arg)
	rel := func(p string) string {
		if base == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, p)
	}
	if h, dir, ok := strings.Cut(arg, "="); ok && !strings.ContainsAny(h, "/\\") {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" || strings.ContainsAny(h, " :") || dir == "" {
			return Source{}, fmt.Errorf("%q: want HOST=DIR (a host name without port, a directory)", arg)
		}
		return Source{Host: h, Dir: rel(dir)}, nil
	}
	if strings.HasSuffix(arg, ".warc") || strings.HasSuffix(arg, ".warc.gz") {
		return Source{WARC: rel(arg)}, nil
	}
	return Source{}, fmt.Errorf("%q: neither HOST=DIR nor a .warc / .warc.gz file", arg)
}

// ReadSources reads a sources file: one source per line (HOST=DIR or a
// WARC path, relative to the file's directory), '#' comments and blank
// lines ignored. Errors name the line.
func ReadSources(path string) ([]Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Source
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s, err := ParseSource(line, filepath.Dir(path))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// New opens a mirror: it checks every directory and indexes every WARC
// file (reading each once).
func New(sources []Source, opts Options) (*Web, error) {
	if opts.DownDelay <= 0 {
		opts.DownDelay = 5 * time.Second
	}
	if opts.Name == "" {
		opts.Name = "simweb"
	}
	w := &Web{opts: opts, hosts: map[string]*host{}}
	for _, s := range sources {
		if s.WARC != "" {
			if err := w.addWARC(s.WARC); err != nil {
				return nil, err
			}
			continue
		}
		root, err := filepath.EvalSymlinks(s.Dir)
		if err != nil {
			return nil, fmt.Errorf("host %s: %w", s.Host, err)
		}
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("host %s: %s is not a directory", s.Host, s.Dir)
		}
		h := w.host(s.Host)
		if h.root != "" {
			return nil, fmt.Errorf("host %s: given twice (%s and %s)", s.Host, h.root, s.Dir)
		}
		h.root, _ = filepath.Abs(root)
	}
	if len(w.hosts) == 0 {
		return nil, errors.New("no hosts: give HOST=DIR or WARC files")
	}
	return w, nil
}

func (w *Web) host(name string) *host {
	h := w.hosts[name]
	if h == nil {
		h = &host{name: name}
		w.hosts[name] = h
	}
	return h
}

// Hosts lists the served host names, sorted.
func (w *Web) Hosts() []string {
	out := make([]string, 0, len(w.hosts))
	for h := range w.hosts {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// Records is the number of WARC records served.
func (w *Web) Records() int {
	n := 0
	for _, h := range w.hosts {
		n += len(h.records)
	}
	return n
}

// Close closes the WARC files.
func (w *Web) Close() error {
	var first error
	for _, f := range w.warcs {
		if err := f.f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// warcFile is an open WARC file of the mirror.
type warcFile struct {
	path string
	f    *os.File
}

// warcEntry locates a record.
type warcEntry struct {
	file *warcFile
	pos  warc.Position
}

// addWARC indexes the response and resource records of a WARC file by
// URL (https captures under their http URL); of several captures of one
// URL the last wins.
func (w *Web) addWARC(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	wf := &warcFile{path: path, f: f}
	w.warcs = append(w.warcs, wf)
	sc := warc.NewScanner(bufio.NewReaderSize(f, 1<<20))
	for {
		rec, pos, err := sc.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if rec.Type != "response" && rec.Type != "resource" {
			continue
		}
		u, err := normalize(rec.TargetURI())
		if err != nil {
			continue // a dns: or non-http record
		}
		// The mirror speaks plain http: an https capture is served under
		// its http URL.
		if rest, ok := strings.CutPrefix(u, "https://"); ok {
			u = "http://" + rest
		}
		h := w.host(hostOf(u))
		if h.records == nil {
			h.records = map[string]warcEntry{}
		}
		h.records[u] = warcEntry{file: wf, pos: pos}
	}
}
