package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// SearXNG queries a SearXNG instance through its JSON API
// (GET /search?q=…&format=json&pageno=N). The instance must allow the json
// format (search.formats in its settings.yml).
type SearXNG struct {
	// Endpoint is the instance's base URL or its /search URL.
	Endpoint string
	// Language and Categories are passed as SearXNG's language and
	// categories parameters when set.
	Language   string
	Categories string
	Client     *Client
}

var _ Engine = (*SearXNG)(nil)

// Name is "searxng".
func (s *SearXNG) Name() string { return "searxng" }

type searxngResponse struct {
	Results []struct {
		URL     string `json:"url"`
		Title   string `json:"title"`
		Content string `json:"content"`
	} `json:"results"`
}

// Search runs one page of query.
func (s *SearXNG) Search(ctx context.Context, query string, page int) ([]Result, error) {
	u, err := s.searchURL(query, page)
	if err != nil {
		return nil, err
	}
	s.Client.trust(u)
	body, _, err := s.Client.get(ctx, u, map[string]string{"Accept": "application/json"})
	if err != nil {
		return nil, fmt.Errorf("searxng: %w", err)
	}
	var r searxngResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("searxng: %s: not a JSON search answer (is format=json enabled on the instance?): %w", u, err)
	}
	out := make([]Result, 0, len(r.Results))
	for _, x := range r.Results {
		if x.URL == "" {
			continue
		}
		out = append(out, Result{URL: x.URL, Title: strings.TrimSpace(x.Title), Snippet: strings.TrimSpace(x.Content)})
	}
	return out, nil
}

func (s *SearXNG) searchURL(query string, page int) (string, error) {
	base, err := url.Parse(s.Endpoint)
	if err != nil || base.Host == "" || (base.Scheme != "http" && base.Scheme != "https") {
		return "", fmt.Errorf("searxng: endpoint %q is not an http(s) URL", s.Endpoint)
	}
	if !strings.HasSuffix(base.Path, "/search") {
		base.Path = strings.TrimSuffix(base.Path, "/") + "/search"
	}
	q := base.Query()
	q.Set("q", query)
	q.Set("format", "json")
	q.Set("pageno", strconv.Itoa(page))
	if s.Language != "" {
		q.Set("language", s.Language)
	}
	if s.Categories != "" {
		q.Set("categories", s.Categories)
	}
	base.RawQuery = q.Encode()
	return base.String(), nil
}
