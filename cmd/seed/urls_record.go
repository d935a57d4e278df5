package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// convert turns the item's line into a url record, or sets its error.
// scratch is reused between calls.
func (it *urlItem) convert(o urlsOptions, scratch []byte) []byte {
	rec, err := jsonl.DecodeURL(it.raw)
	if errors.Is(err, jsonl.ErrComment) {
		return scratch
	}
	if err != nil {
		it.err = err
		return scratch
	}
	raw := rec.URL
	if o.DefaultScheme != "" && !hasScheme(raw) {
		raw = o.DefaultScheme + "://" + raw
	}
	norm, err := urlx.NormalizeWith(raw, o.Normalize)
	if err != nil {
		if errors.Is(err, urlx.ErrNoScheme) && o.DefaultScheme == "" {
			err = fmt.Errorf("%w (--default-scheme adds one)", err)
		}
		it.err = err
		return scratch
	}
	site := urlx.SiteKey(norm)
	if o.HostScope {
		site = urlx.Hostname(norm)
	}
	out := make([]byte, 0, len(norm)+len(site)+40)
	out = append(out, `{"url":`...)
	out = jsonl.AppendString(out, norm)
	out = append(out, `,"depth":0,"site":`...)
	out = jsonl.AppendString(out, site)
	if jsonl.IsJSON(it.raw) {
		if out, err = appendOtherFields(out, it.raw); err != nil {
			it.err = err
			return scratch
		}
	}
	it.key = norm
	it.out = append(out, '}')
	return scratch
}

// hasScheme tells whether s starts with a URL scheme ("mailto:", "http:")
// rather than a host with a port ("localhost:8080") or no colon at all.
func hasScheme(s string) bool {
	s = string(bytes.TrimSpace([]byte(s)))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			return i > 0 && !(i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-'):
		default: // '.', '/', … : a host or a path
			return false
		}
	}
	return false
}

// fields that seed urls sets itself.
var ownFields = map[string]bool{"url": true, "depth": true, "site": true}

// appendOtherFields appends, in their input order, the members of the JSON
// object line other than url, depth and site, each value byte for byte.
func appendOtherFields(out, line []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // {
		return out, fmt.Errorf("invalid JSON: %w", err)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out, fmt.Errorf("invalid JSON: %w", err)
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out, fmt.Errorf("field %q: %w", key, err)
		}
		if ownFields[key] {
			continue
		}
		out = append(out, ',')
		out = jsonl.AppendString(out, key)
		out = append(out, ':')
		out = append(out, v...)
	}
	return out, nil
}
