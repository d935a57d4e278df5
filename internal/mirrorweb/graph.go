package mirrorweb

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/temoto/robotstxt"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// Node is one URL of the mirror's truth: a page, a file, a redirect, or
// a URL that cannot be fetched. Links and Location are node IDs.
type Node struct {
	ID  int    `json:"id"`
	URL string `json:"url"`
	// Host is the URL's host[:port].
	Host string `json:"host"`
	// Status is what the URL answers (0 when it cannot be fetched).
	Status int    `json:"status"`
	Type   string `json:"type,omitempty"`
	// Unfetchable says why no crawler can fetch it: dns (a host the
	// mirror does not have), refused or timeout (a host declared down),
	// robots (its host's robots.txt forbids it), scheme (https: the
	// mirror is plain http).
	Unfetchable string `json:"unfetchable,omitempty"`
	// Resource names the content served (a file or a WARC record); two
	// nodes with one resource are one page under two URLs.
	Resource string `json:"resource,omitempty"`
	// Location is the node a redirect leads to.
	Location *int `json:"location,omitempty"`
	// Depth is the number of links from the portal (0 for the portal),
	// -1 when the portal does not lead here.
	Depth int `json:"depth"`
	// Relevant lists the topics whose rules match the page (HTML, 200).
	Relevant []string `json:"relevant,omitempty"`
	Links    []int    `json:"links,omitempty"`
}

// Reachable says whether the portal leads to the node by links.
func (n *Node) Reachable() bool { return n.Depth >= 0 }

// Graph is the truth of a mirror: every URL reached from the portals and
// from every page of the mirror, with its links.
type Graph struct {
	Portals []string
	Topics  []string
	Nodes   []*Node
	byURL   map[string]int
}

// UserAgent is the robots.txt product token the truth obeys, the
// crawler's (fetch --user-agent's first word).
const UserAgent = "focuscrawl"

// Build walks the mirror from the portal URLs, fetching every page in
// process and following its links breadth-first (obeying each host's
// robots.txt for UserAgent), then walks the pages no portal leads to, so
// the truth also knows the relevant pages the crawl cannot reach.
func (w *Web) Build(ctx context.Context, portals []string, rules *Rules) (*Graph, error) {
	g := &Graph{byURL: map[string]int{}}
	if rules != nil {
		g.Topics = rules.Topics()
	}
	robots := map[string]*robotstxt.Group{}
	var queue []int
	add := func(u string, depth int) int {
		if id, ok := g.byURL[u]; ok {
			return id
		}
		n := &Node{ID: len(g.Nodes), URL: u, Host: hostOf(u), Depth: depth}
		g.Nodes = append(g.Nodes, n)
		g.byURL[u] = n.ID
		queue = append(queue, n.ID)
		return n.ID
	}
	for _, p := range portals {
		u, err := normalize(p)
		if err != nil {
			return nil, err
		}
		g.Portals = append(g.Portals, u)
		add(u, 0)
	}
	expand := func(id int) {
		n := g.Nodes[id]
		childDepth := -1
		if n.Depth >= 0 {
			childDepth = n.Depth + 1
		}
		links, location := w.visit(n, robots)
		if location != "" {
			loc := add(location, childDepth)
			n.Location, n.Links = &loc, []int{loc}
			return
		}
		for _, l := range links {
			n.Links = append(n.Links, add(l, childDepth))
		}
	}
	run := func() error {
		for len(queue) > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			id := queue[0]
			queue = queue[1:]
			expand(id)
		}
		return nil
	}
	if err := run(); err != nil {
		return nil, err
	}
	// Then every page of the mirror no portal led to.
	for _, u := range w.pageURLs() {
		add(u, -1)
	}
	if err := run(); err != nil {
		return nil, err
	}
	if rules != nil {
		for _, n := range g.Nodes {
			if n.Status != http.StatusOK || !isHTML(n.Type) {
				continue
			}
			target := n.URL
			if n.Resource != "" {
				target = n.Resource
			}
			for _, t := range g.Topics {
				if rules.Match(t, target) {
					n.Relevant = append(n.Relevant, t)
				}
			}
		}
	}
	return g, nil
}

// visit fetches a node's URL from the mirror and records what it
// answers; it returns the page's links, or the redirect's target.
func (w *Web) visit(n *Node, robots map[string]*robotstxt.Group) (links []string, location string) {
	u, err := url.Parse(n.URL)
	if err != nil {
		n.Unfetchable = "invalid"
		return nil, ""
	}
	if u.Scheme == "http" && w.hosts[canonicalHost(u.Scheme, u.Host)] != nil {
		if _, down := w.opts.Down[canonicalHost(u.Scheme, u.Host)]; !down {
			origin := u.Scheme + "://" + u.Host
			grp, ok := robots[origin]
			if !ok {
				grp = w.robotsGroup(origin)
				robots[origin] = grp
			}
			if grp != nil && !grp.Test(u.RequestURI()) {
				n.Unfetchable = "robots"
				return nil, ""
			}
		}
	}
	resp := w.get(u)
	switch resp.ProxyError {
	case DownDNS:
		n.Unfetchable = "dns"
		return nil, ""
	case DownRefused:
		n.Unfetchable = "refused"
		if u.Scheme != "http" {
			n.Unfetchable = "scheme"
		}
		return nil, ""
	case DownTimeout:
		n.Unfetchable = "timeout"
		return nil, ""
	}
	n.Status = resp.Status
	n.Resource = resp.Resource
	n.Type, _, _ = strings.Cut(resp.Header.Get("Content-Type"), ";")
	n.Type = strings.TrimSpace(strings.ToLower(n.Type))
	if resp.Status >= 300 && resp.Status < 400 {
		if loc := resp.Header.Get("Location"); loc != "" {
			if l, err := urlx.Resolve(n.URL, loc); err == nil && l != n.URL {
				return nil, l
			}
		}
		return nil, ""
	}
	if resp.Status != http.StatusOK || !isHTML(n.Type) {
		return nil, ""
	}
	return Links(n.URL, resp.Body, resp.Header.Get("Content-Type")), ""
}

// robotsGroup is the robots.txt group for UserAgent of an origin: nil
// allows everything (no robots.txt, a 4xx), a 5xx disallows everything
// (RFC 9309).
func (w *Web) robotsGroup(origin string) *robotstxt.Group {
	resp := w.Get(origin + "/robots.txt")
	switch {
	case resp.Status == http.StatusOK:
		data, err := robotstxt.FromBytes(resp.Body)
		if err != nil {
			return nil
		}
		return data.FindGroup(UserAgent)
	case resp.Status >= 500:
		data, _ := robotstxt.FromString("User-agent: *\nDisallow: /\n")
		return data.FindGroup(UserAgent)
	}
	return nil
}

// pageURLs lists the URLs of every HTML file of the trees and every
// HTML record of the WARC files, sorted.
func (w *Web) pageURLs() []string {
	var out []string
	for _, name := range w.Hosts() {
		h := w.hosts[name]
		for u := range h.records {
			out = append(out, u)
		}
		if h.root == "" {
			continue
		}
		filepath.WalkDir(h.root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if strings.HasPrefix(d.Name(), ".") && p != h.root {
					return filepath.SkipDir
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(p))
			if ext != ".html" && ext != ".htm" && ext != ".xhtml" {
				return nil
			}
			rel, err := filepath.Rel(h.root, p)
			if err != nil {
				return nil
			}
			raw := (&url.URL{Scheme: "http", Host: name, Path: "/" + filepath.ToSlash(rel)}).String()
			if u, err := normalize(raw); err == nil {
				out = append(out, u)
			}
			return nil
		})
	}
	sort.Strings(out)
	return out
}

// Node returns the node of a URL (normalised first).
func (g *Graph) Node(rawURL string) *Node {
	if id, ok := g.byURL[rawURL]; ok {
		return g.Nodes[id]
	}
	if u, err := normalize(rawURL); err == nil {
		if id, ok := g.byURL[u]; ok {
			return g.Nodes[id]
		}
	}
	return nil
}
