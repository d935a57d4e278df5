package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/netguard"
)

// Result is one search result.
type Result struct {
	URL     string
	Title   string
	Snippet string
	// Rank is the 1-based position of the result over all pages of one
	// query on one engine.
	Rank int
}

// Engine runs one page of one query.
type Engine interface {
	// Name names the engine in results and messages.
	Name() string
	// Search returns the results of page (1-based) of query.
	Search(ctx context.Context, query string, page int) ([]Result, error)
}

// DefaultUserAgent is sent when a Client is built without one.
const DefaultUserAgent = "Mozilla/5.0 (compatible; focuscrawl; +https://github.com/focuscrawl/focuscrawl)"

// maxResponse bounds a result page or API response.
const maxResponse = 8 << 20

// Client is the HTTP side every engine shares.
type Client struct {
	HTTP      *http.Client
	UserAgent string
	// Trusted holds the engines' own addresses: an engine is the user's
	// choice and may run on loopback (a local SearXNG), while the links
	// an engine hands out are strangers' and their dials are checked.
	Trusted *netguard.Trusted
}

// NewClient returns a client with the given timeout that honours the
// HTTP_PROXY family of environment variables. Its dials are checked by
// policy (netguard), except those to the engines' own endpoints.
func NewClient(timeout time.Duration, userAgent string, policy netguard.Policy) *Client {
	if userAgent == "" {
		userAgent = DefaultUserAgent
	}
	trusted := &netguard.Trusted{}
	return &Client{
		HTTP: &http.Client{
			Timeout:   timeout,
			Transport: netguard.NewTransport(policy, trusted, timeout),
		},
		UserAgent: userAgent,
		Trusted:   trusted,
	}
}

// trust marks an engine's endpoint URL as the user's choice.
func (c *Client) trust(endpoint string) {
	if c.Trusted != nil {
		c.Trusted.AddURL(endpoint)
	}
}

// StatusError is an HTTP answer other than 200.
type StatusError struct {
	URL    string
	Status int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s: HTTP %d %s", e.URL, e.Status, http.StatusText(e.Status))
}

// ErrBlocked marks an answer that asks the robot to stop (429, or a
// captcha page an engine description recognises).
var ErrBlocked = errors.New("the engine refused the robot (rate limit or captcha)")

// get fetches u with the given extra headers and returns the body and its
// Content-Type.
func (c *Client) get(ctx context.Context, u string, headers map[string]string) ([]byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("User-Agent", c.UserAgent)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return nil, "", fmt.Errorf("%s: read: %w", u, err)
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, "", fmt.Errorf("%w: %w", ErrBlocked, &StatusError{URL: u, Status: resp.StatusCode})
	case resp.StatusCode != http.StatusOK:
		return nil, "", &StatusError{URL: u, Status: resp.StatusCode}
	}
	return body, resp.Header.Get("Content-Type"), nil
}
