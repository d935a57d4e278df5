package seedurls

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/cli"
	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// converted is what became of one line.
type converted struct {
	key     string // normalised URL, the de-duplication key
	out     []byte // the url record to write; nil for a comment
	closing bool   // the stand-in for a line over the reader's cap
}

// convert turns a line into a url record. Its errors reject the line.
// The error record cli.Ordered hands on for a line over the reader's cap
// (already rejected) becomes nothing: a seed list has no URL to close.
func convert(l jsonl.Line, o Options) (converted, error) {
	if l.Closing {
		return converted{closing: true}, nil
	}
	line := l.Bytes
	rec, err := jsonl.DecodeURL(line)
	if errors.Is(err, jsonl.ErrComment) {
		return converted{}, nil
	}
	if err != nil {
		return converted{}, cli.Reject(err)
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
		return converted{}, cli.Reject(err)
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
	if jsonl.IsJSON(line) {
		if out, err = appendOtherFields(out, line); err != nil {
			return converted{}, cli.Reject(err)
		}
	}
	return converted{key: norm, out: append(out, '}')}, nil
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

// appendOtherFields appends, in their input order, the members of the JSON
// object line other than url, depth and site (which seed urls sets
// itself), each value byte for byte. line has been decoded (jsonl.Decode).
func appendOtherFields(out, line []byte) ([]byte, error) {
	var buf [16]jsonl.Member
	members, err := jsonl.Members(line, buf[:0])
	if err != nil {
		return out, fmt.Errorf("invalid JSON: %w", err)
	}
	for _, m := range members {
		if m.Is(line, "url") || m.Is(line, "depth") || m.Is(line, "site") {
			continue
		}
		out = append(out, ',')
		out = jsonl.AppendString(out, memberName(line, m))
		out = append(out, ':')
		out = append(out, line[m.Value:m.End]...)
	}
	return out, nil
}

// memberName is m's key as encoding/json reads it: invalid UTF-8 becomes
// U+FFFD, byte by byte.
func memberName(line []byte, m jsonl.Member) string {
	name := m.Name(line)
	if utf8.ValidString(name) {
		return name
	}
	quoted := line[m.Start:m.Value]
	quoted = bytes.TrimRight(quoted[:bytes.LastIndexByte(quoted, ':')], " \t\r\n")
	json.Unmarshal(quoted, &name) //nolint:errcheck // valid JSON: Decode read it
	return name
}
