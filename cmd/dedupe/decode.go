package main

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// decodeInput is the fast path of decoding a line into in: one pass over
// the bytes, the fields dedupe reads decoded and every other value
// checked and skipped, where encoding/json checks the whole line first
// and then decodes it (a fifth of dedupe's CPU once docs carry tokens).
// It reports false, leaving in in an unspecified state, whenever the line
// is not plainly valid (bad JSON, a type encoding/json would refuse, a
// key differing from ours only in case, a lone surrogate, invalid UTF-8
// in a field it keeps, null meta): the caller then decodes the line with
// jsonl.Decode, for the same result or its error message.
func decodeInput(b []byte, in *input) bool {
	p := parser{b: b}
	p.ws()
	if !p.eat('{') {
		return false
	}
	p.ws()
	if p.eat('}') {
		return p.end()
	}
	for {
		p.ws()
		key, ok := p.key()
		if !ok {
			return false
		}
		p.ws()
		if !p.eat(':') {
			return false
		}
		p.ws()
		if !p.field(key, in) {
			return false
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat('}') {
			return p.end()
		}
		return false
	}
}

// inputKeys are the keys decodeInput decodes.
var inputKeys = []string{"url", "final_url", "canonical", "title", "published", "source", "author",
	"content", "score", "relevant", "error", "meta", "duplicates", "tokens"}

type parser struct {
	b []byte
	i int
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end checks that only white space is left.
func (p *parser) end() bool {
	p.ws()
	return p.i == len(p.b)
}

func (p *parser) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

// key reads an object key without escapes (false otherwise).
func (p *parser) key() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			k := string(p.b[start:p.i])
			p.i++
			return k, true
		}
		if c == '\\' || c < 0x20 {
			return "", false
		}
		p.i++
	}
	return "", false
}

// field decodes the value of key into in, or checks and skips it.
func (p *parser) field(key string, in *input) bool {
	var dst *string
	switch key {
	case "url":
		dst = &in.URL
	case "final_url":
		dst = &in.FinalURL
	case "canonical":
		dst = &in.Canonical
	case "title":
		dst = &in.Title
	case "published":
		dst = &in.Published
	case "source":
		dst = &in.Source
	case "author":
		dst = &in.Author
	case "content":
		dst = &in.Content
	case "error":
		dst = &in.Error
	case "score":
		if p.literal("null") {
			return true
		}
		start := p.i
		if !p.number() {
			return false
		}
		f, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
		if err != nil {
			return false
		}
		in.Score = f
		return true
	case "relevant":
		switch {
		case p.literal("null"):
			in.Relevant = nil
		case p.literal("true"):
			v := true
			in.Relevant = &v
		case p.literal("false"):
			v := false
			in.Relevant = &v
		default:
			return false
		}
		return true
	case "meta":
		if p.peek() == 'n' {
			return false
		}
		start := p.i
		if !p.skip(0) {
			return false
		}
		in.Meta = record.Meta(append([]byte(nil), p.b[start:p.i]...))
		return true
	case "duplicates":
		if p.literal("null") {
			in.Duplicates = nil
			return true
		}
		if !p.eat('[') {
			return false
		}
		in.Duplicates = in.Duplicates[:0]
		if in.Duplicates == nil {
			in.Duplicates = []string{}
		}
		p.ws()
		if p.eat(']') {
			return true
		}
		for {
			p.ws()
			s, ok := p.str()
			if !ok {
				return false
			}
			in.Duplicates = append(in.Duplicates, s)
			p.ws()
			if p.eat(']') {
				return true
			}
			if !p.eat(',') {
				return false
			}
		}
	case "tokens":
		start := p.i
		if p.peek() != '[' && p.peek() != 'n' || !p.skip(0) {
			return false
		}
		return in.Tokens.UnmarshalJSON(p.b[start:p.i]) == nil
	default:
		for _, k := range inputKeys {
			if strings.EqualFold(k, key) {
				return false // encoding/json matches keys without case
			}
		}
		return p.skip(0)
	}
	if p.literal("null") {
		return true
	}
	s, ok := p.str()
	if ok {
		*dst = s
	}
	return ok
}

func (p *parser) literal(l string) bool {
	if len(p.b)-p.i >= len(l) && string(p.b[p.i:p.i+len(l)]) == l {
		p.i += len(l)
		return true
	}
	return false
}

// str reads a string value, unescaped.
func (p *parser) str() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	plain := true
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			raw := p.b[start:p.i]
			p.i++
			if plain {
				if !utf8.Valid(raw) {
					return "", false
				}
				return string(raw), true
			}
			return unescape(raw)
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", false
		default:
			p.i++
		}
	}
	return "", false
}

// unescape decodes the escapes of a JSON string's body.
func unescape(raw []byte) (string, bool) {
	if !utf8.Valid(raw) {
		return "", false
	}
	var sb strings.Builder
	sb.Grow(len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := i + 1
			for j < len(raw) && raw[j] != '\\' {
				j++
			}
			sb.Write(raw[i:j])
			i = j
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			sb.WriteByte(raw[i+1])
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					r2, ok = hex4(raw, i+8)
				}
				if !ok {
					return "", false // lone surrogate: encoding/json's rules
				}
				d := utf16.DecodeRune(r, r2)
				if d == utf8.RuneError {
					return "", false
				}
				sb.WriteRune(d)
				i += 12
				continue
			}
			sb.WriteRune(r)
			i += 6
			continue
		default:
			return "", false
		}
		i += 2
	}
	return sb.String(), true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number checks a JSON number.
func (p *parser) number() bool {
	p.eat('-')
	switch c := p.peek(); {
	case c == '0':
		p.i++
	case '1' <= c && c <= '9':
		p.digits()
	default:
		return false
	}
	if p.eat('.') {
		if c := p.peek(); c < '0' || c > '9' {
			return false
		}
		p.digits()
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if !p.eat('+') {
			p.eat('-')
		}
		if c := p.peek(); c < '0' || c > '9' {
			return false
		}
		p.digits()
	}
	return true
}

func (p *parser) digits() {
	for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
		p.i++
	}
}

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// skip checks one value and moves past it.
func (p *parser) skip(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch c := p.peek(); {
	case c == '"':
		p.i++
		for p.i < len(p.b) {
			c := p.b[p.i]
			switch {
			case c == '"':
				p.i++
				return true
			case c == '\\':
				if p.i+1 >= len(p.b) {
					return false
				}
				switch p.b[p.i+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					p.i += 2
				case 'u':
					if _, ok := hex4(p.b, p.i+2); !ok {
						return false
					}
					p.i += 6
				default:
					return false
				}
			case c < 0x20:
				return false
			default:
				p.i++
			}
		}
		return false
	case c == '{':
		p.i++
		p.ws()
		if p.eat('}') {
			return true
		}
		for {
			p.ws()
			if p.peek() != '"' || !p.skip(depth+1) {
				return false
			}
			p.ws()
			if !p.eat(':') {
				return false
			}
			p.ws()
			if !p.skip(depth + 1) {
				return false
			}
			p.ws()
			if p.eat('}') {
				return true
			}
			if !p.eat(',') {
				return false
			}
		}
	case c == '[':
		p.i++
		p.ws()
		if p.eat(']') {
			return true
		}
		for {
			p.ws()
			if !p.skip(depth + 1) {
				return false
			}
			p.ws()
			if p.eat(']') {
				return true
			}
			if !p.eat(',') {
				return false
			}
		}
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	default:
		return p.number()
	}
}
