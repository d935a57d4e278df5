package search

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/focuscrawl/focuscrawl/internal/charset"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// GenericConfig describes a search engine's result pages. It is read from
// YAML; docs/seed.md documents every key and examples/engines/ holds
// descriptions of Baidu, Bing and Sogou.
type GenericConfig struct {
	Name string `yaml:"name"`
	// URL is the result page's address with {query} (the escaped query),
	// {page} (1-based) and {offset} ((page-1)*per_page + offset_base).
	URL        string `yaml:"url"`
	PerPage    int    `yaml:"per_page"`
	OffsetBase int    `yaml:"offset_base"`
	// QueryEncoding is how the query is encoded before escaping: utf-8
	// (default) or gb18030 (also gbk, gb2312) for engines that want it.
	QueryEncoding string            `yaml:"query_encoding"`
	Headers       map[string]string `yaml:"headers"`
	// Result selects each result; Link, Title and Snippet select inside
	// it. An empty Link means the result element itself; LinkAttr is the
	// attribute holding the URL (href); an empty Title takes the link's
	// text.
	Result   string `yaml:"result"`
	Link     string `yaml:"link"`
	LinkAttr string `yaml:"link_attr"`
	Title    string `yaml:"title"`
	Snippet  string `yaml:"snippet"`
	// Blocked, when it matches anything on a page, says the engine served
	// a captcha or a refusal instead of results.
	Blocked string `yaml:"blocked"`
	Unwrap  Unwrap `yaml:"unwrap"`
}

// Unwrap says how to get a result's real URL out of an engine's redirect
// link. The steps apply in order: Param or Regexp extract a value,
// TrimPrefix and Base64 decode it, Redirect asks the engine where the link
// leads.
type Unwrap struct {
	// Match limits unwrapping to links matching this regular expression.
	Match string `yaml:"match"`
	// Param takes the URL from this query parameter of the link.
	Param string `yaml:"param"`
	// Regexp takes the URL from its first capture group in the link.
	Regexp string `yaml:"regexp"`
	// TrimPrefix is removed from the extracted value (Bing's "a1").
	TrimPrefix string `yaml:"trim_prefix"`
	// Base64 decodes the value (standard or URL alphabet, padded or not).
	Base64 bool `yaml:"base64"`
	// Redirect requests the link without following it and takes its
	// Location, or the target of a meta refresh or location.replace.
	Redirect bool `yaml:"redirect"`
}

// Generic is an Engine described by a GenericConfig.
type Generic struct {
	cfg     GenericConfig
	client  *Client
	result  goquery.Matcher
	link    goquery.Matcher
	title   goquery.Matcher
	snippet goquery.Matcher
	blocked goquery.Matcher
	match   *regexp.Regexp
	extract *regexp.Regexp
}

var _ Engine = (*Generic)(nil)

// LoadGeneric reads an engine description from a YAML file.
func LoadGeneric(path string, client *Client) (*Generic, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("engine file: %w", err)
	}
	return ParseGeneric(data, path, client)
}

// ParseGeneric reads an engine description; name is used in messages.
func ParseGeneric(data []byte, name string, client *Client) (*Generic, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var cfg GenericConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g, err := NewGeneric(cfg, client)
	if err != nil {
		var ke *KeyError
		if errors.As(err, &ke) {
			return nil, fmt.Errorf("%s:%d: %w", name, keyLine(&root, ke.Key), err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, nil
}

// KeyError is a bad value in an engine description.
type KeyError struct {
	Key string
	Err error
}

func (e *KeyError) Error() string { return fmt.Sprintf("%s: %v", e.Key, e.Err) }
func (e *KeyError) Unwrap() error { return e.Err }

// keyLine finds the line of a key such as "unwrap.regexp" in a YAML tree.
func keyLine(root *yaml.Node, key string) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, part := range strings.Split(key, ".") {
		if n.Kind != yaml.MappingNode {
			break
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			break
		}
	}
	return line
}

// NewGeneric checks cfg and compiles its selectors.
func NewGeneric(cfg GenericConfig, client *Client) (*Generic, error) {
	g := &Generic{cfg: cfg, client: client}
	if cfg.Name == "" {
		return nil, &KeyError{"name", errors.New("missing")}
	}
	if !strings.Contains(cfg.URL, "{query}") {
		return nil, &KeyError{"url", errors.New("the template has no {query}")}
	}
	if u, err := url.Parse(strings.NewReplacer("{query}", "q", "{page}", "1", "{offset}", "0").Replace(cfg.URL)); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, &KeyError{"url", fmt.Errorf("%q is not an http(s) URL template", cfg.URL)}
	} else if client != nil {
		client.trust(u.String())
	}
	if g.cfg.PerPage <= 0 {
		g.cfg.PerPage = 10
	}
	if g.cfg.LinkAttr == "" {
		g.cfg.LinkAttr = "href"
	}
	switch strings.ToLower(cfg.QueryEncoding) {
	case "", "utf-8", "utf8", "gb18030", "gbk", "gb2312":
	default:
		return nil, &KeyError{"query_encoding", fmt.Errorf("%q is not utf-8 or gb18030", cfg.QueryEncoding)}
	}
	if cfg.Result == "" {
		return nil, &KeyError{"result", errors.New("missing: the selector of one result")}
	}
	for _, s := range []struct {
		key, sel string
		dst      *goquery.Matcher
	}{{"result", cfg.Result, &g.result}, {"link", cfg.Link, &g.link}, {"title", cfg.Title, &g.title},
		{"snippet", cfg.Snippet, &g.snippet}, {"blocked", cfg.Blocked, &g.blocked}} {
		if s.sel == "" {
			continue
		}
		sel, err := cascadia.Compile(s.sel)
		if err != nil {
			return nil, &KeyError{s.key, fmt.Errorf("CSS selector %q: %w", s.sel, err)}
		}
		*s.dst = sel
	}
	var err error
	if cfg.Unwrap.Match != "" {
		if g.match, err = regexp.Compile(cfg.Unwrap.Match); err != nil {
			return nil, &KeyError{"unwrap.match", err}
		}
	}
	if cfg.Unwrap.Regexp != "" {
		if g.extract, err = regexp.Compile(cfg.Unwrap.Regexp); err != nil {
			return nil, &KeyError{"unwrap.regexp", err}
		}
		if g.extract.NumSubexp() < 1 {
			return nil, &KeyError{"unwrap.regexp", errors.New("needs a capture group around the URL")}
		}
	}
	if cfg.Unwrap.Param != "" && cfg.Unwrap.Regexp != "" {
		return nil, &KeyError{"unwrap", errors.New("param and regexp exclude each other")}
	}
	return g, nil
}

// Name is the description's name.
func (g *Generic) Name() string { return g.cfg.Name }

// PageURL gives the address of one result page of query.
func (g *Generic) PageURL(query string, page int) string {
	q := query
	switch strings.ToLower(g.cfg.QueryEncoding) {
	case "gb18030", "gbk", "gb2312":
		if b, err := simplifiedchinese.GB18030.NewEncoder().String(query); err == nil {
			q = b
		}
	}
	offset := (page-1)*g.cfg.PerPage + g.cfg.OffsetBase
	return strings.NewReplacer("{query}", url.QueryEscape(q), "{page}", strconv.Itoa(page), "{offset}", strconv.Itoa(offset)).Replace(g.cfg.URL)
}

// Search fetches one result page and reads its results.
func (g *Generic) Search(ctx context.Context, query string, page int) ([]Result, error) {
	pageURL := g.PageURL(query, page)
	body, ctype, err := g.client.get(ctx, pageURL, g.cfg.Headers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.cfg.Name, err)
	}
	text, _, _ := charset.Decode(body, ctype)
	return g.parse(ctx, pageURL, text)
}

func (g *Generic) parse(ctx context.Context, pageURL, html string) ([]Result, error) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		return nil, fmt.Errorf("%s: parse %s: %w", g.cfg.Name, pageURL, err)
	}
	if g.blocked != nil && doc.FindMatcher(g.blocked).Length() > 0 {
		return nil, fmt.Errorf("%s: %s: %w", g.cfg.Name, pageURL, ErrBlocked)
	}
	engineHost := urlx.Host(pageURL)
	var out []Result
	var firstErr error
	doc.FindMatcher(g.result).Each(func(_ int, s *goquery.Selection) {
		link := s
		if g.link != nil {
			link = s.FindMatcher(g.link).First()
		}
		href, ok := link.Attr(g.cfg.LinkAttr)
		if !ok || strings.TrimSpace(href) == "" {
			return
		}
		abs, err := urlx.Resolve(pageURL, strings.TrimSpace(href))
		if err != nil {
			return // javascript: and the like
		}
		real, err := g.unwrap(ctx, abs)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return
		}
		if urlx.Host(real) == engineHost {
			return // the engine's own links: related searches, ads, paging
		}
		r := Result{URL: real, Title: clean(link.Text())}
		if g.title != nil {
			r.Title = clean(s.FindMatcher(g.title).First().Text())
		}
		if g.snippet != nil {
			r.Snippet = clean(s.FindMatcher(g.snippet).First().Text())
		}
		out = append(out, r)
	})
	if len(out) == 0 && firstErr != nil {
		return nil, fmt.Errorf("%s: %w", g.cfg.Name, firstErr)
	}
	return out, nil
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// unwrap turns an engine's redirect link into the result's URL.
func (g *Generic) unwrap(ctx context.Context, link string) (string, error) {
	uw := g.cfg.Unwrap
	if g.match != nil && !g.match.MatchString(link) {
		return link, nil
	}
	v := link
	switch {
	case uw.Param != "":
		u, err := url.Parse(link)
		if err != nil {
			return "", err
		}
		p := u.Query().Get(uw.Param)
		if p == "" {
			return link, nil // not a redirect link after all
		}
		v = p
	case g.extract != nil:
		m := g.extract.FindStringSubmatch(link)
		if m == nil {
			return link, nil
		}
		if s, err := url.QueryUnescape(m[1]); err == nil {
			v = s
		} else {
			v = m[1]
		}
	}
	v = strings.TrimPrefix(v, uw.TrimPrefix)
	if uw.Base64 {
		b, err := decodeBase64(v)
		if err != nil {
			return "", fmt.Errorf("unwrap %s: %w", link, err)
		}
		v = string(b)
	}
	if uw.Redirect {
		target, err := g.follow(ctx, v)
		if err != nil {
			return "", err
		}
		v = target
	}
	return urlx.Normalize(v)
}

func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if b, err := base64.RawURLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(s)
}

var (
	metaRefresh = regexp.MustCompile(`(?i)<meta[^>]+http-equiv=["']?refresh["']?[^>]*content=["']?\d*\s*;\s*url=['"]?([^"'>\s]+)`)
	jsReplace   = regexp.MustCompile(`(?:location\.replace|location\.href\s*=|window\.location\s*=)\s*\(?\s*["']([^"']+)["']`)
)

// follow asks the engine where a redirect link leads.
func (g *Generic) follow(ctx context.Context, link string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("User-Agent", g.client.UserAgent)
	for k, v := range g.cfg.Headers {
		req.Header.Set(k, v)
	}
	hc := *g.client.HTTP
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("unwrap %s: %w", link, err)
	}
	defer resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return urlx.Resolve(link, loc)
	}
	var buf bytes.Buffer
	buf.ReadFrom(io.LimitReader(resp.Body, 64<<10))
	for _, re := range []*regexp.Regexp{metaRefresh, jsReplace} {
		if m := re.FindSubmatch(buf.Bytes()); m != nil {
			return urlx.Resolve(link, string(m[1]))
		}
	}
	return "", fmt.Errorf("unwrap %s: HTTP %d and no redirect", link, resp.StatusCode)
}
