package charset

import "bytes"

// prescan looks for a charset declared by a <meta> element in the first
// 1024 bytes of body, following the WHATWG "prescan a byte stream to
// determine its encoding" algorithm: comments are skipped, other tags'
// attributes are skipped whole (so a quoted ">" does not confuse it), and a
// meta counts when it has a charset attribute, or an http-equiv of
// content-type together with a content attribute holding charset=.
// It returns the label, or "" when none is declared.
func prescan(body []byte) string {
	if len(body) > prescanLimit {
		body = body[:prescanLimit]
	}
	p := 0
	for p < len(body) {
		if body[p] != '<' {
			p++
			continue
		}
		rest := body[p:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			end := bytes.Index(rest[4:], []byte("-->"))
			if end < 0 {
				return ""
			}
			p += 4 + end + 3
		case len(rest) > 5 && asciiEqualFold(rest[1:5], "meta") && isSpaceOrSlash(rest[5]):
			label, next := metaCharset(body, p+5)
			if label != "" {
				return label
			}
			p = next
		case len(rest) > 1 && (isLetter(rest[1]) || (rest[1] == '/' && len(rest) > 2 && isLetter(rest[2]))):
			// Skip the tag name, then its attributes.
			q := p + 1
			for q < len(body) && !isSpace(body[q]) && body[q] != '>' {
				q++
			}
			for {
				_, _, next, ok := nextAttr(body, q)
				q = next
				if !ok {
					break
				}
			}
			p = q + 1
		case len(rest) > 1 && (rest[1] == '!' || rest[1] == '/' || rest[1] == '?'):
			end := bytes.IndexByte(rest, '>')
			if end < 0 {
				return ""
			}
			p += end + 1
		default:
			p++
		}
	}
	return ""
}

// metaCharset reads the attributes of a meta element starting at p and
// returns the charset it declares (or "") and where parsing stopped.
func metaCharset(body []byte, p int) (string, int) {
	var gotPragma, needPragma bool
	var charset string
	seen := map[string]bool{}
	for {
		name, value, next, ok := nextAttr(body, p)
		p = next
		if !ok {
			break
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		switch name {
		case "http-equiv":
			if asciiEqualFold([]byte(value), "content-type") {
				gotPragma = true
			}
		case "content":
			if charset == "" {
				if cs := charsetFromContent([]byte(value)); cs != "" {
					charset, needPragma = cs, true
				}
			}
		case "charset":
			if charset == "" {
				charset, needPragma = value, false
			}
		}
	}
	if charset == "" || (needPragma && !gotPragma) {
		return "", p + 1
	}
	return charset, p + 1
}

// nextAttr parses one attribute at p, per the WHATWG "get an attribute"
// steps. ok is false at the end of the tag (next then points at '>' or the
// end of body). Names are lower-cased; values are returned as written.
func nextAttr(b []byte, p int) (name, value string, next int, ok bool) {
	for p < len(b) && (isSpace(b[p]) || b[p] == '/') {
		p++
	}
	if p >= len(b) || b[p] == '>' {
		return "", "", p, false
	}
	start := p
	for p < len(b) && b[p] != '=' && b[p] != '>' && b[p] != '/' && !isSpace(b[p]) {
		p++
	}
	if p == start && p < len(b) && b[p] == '=' { // "=" opening a name
		p++
	}
	name = string(bytes.ToLower(b[start:p]))
	for p < len(b) && isSpace(b[p]) {
		p++
	}
	if p >= len(b) || b[p] != '=' {
		return name, "", p, true
	}
	p++
	for p < len(b) && isSpace(b[p]) {
		p++
	}
	if p >= len(b) {
		return name, "", p, true
	}
	if q := b[p]; q == '"' || q == '\'' {
		end := bytes.IndexByte(b[p+1:], q)
		if end < 0 {
			return name, string(b[p+1:]), len(b), true
		}
		return name, string(b[p+1 : p+1+end]), p + 1 + end + 1, true
	}
	start = p
	for p < len(b) && !isSpace(b[p]) && b[p] != '>' {
		p++
	}
	return name, string(b[start:p]), p, true
}

// charsetFromContent extracts the charset from a content attribute value
// or a Content-Type value ("text/html; charset=gbk"), per the WHATWG
// "extract a character encoding from a meta element" steps.
func charsetFromContent(v []byte) string {
	for {
		i := indexFold(v, "charset")
		if i < 0 {
			return ""
		}
		v = v[i+len("charset"):]
		j := 0
		for j < len(v) && isSpace(v[j]) {
			j++
		}
		if j >= len(v) || v[j] != '=' {
			continue // not followed by "=": look for the next occurrence
		}
		v = v[j+1:]
		j = 0
		for j < len(v) && isSpace(v[j]) {
			j++
		}
		v = v[j:]
		if len(v) == 0 {
			return ""
		}
		if q := v[0]; q == '"' || q == '\'' {
			end := bytes.IndexByte(v[1:], q)
			if end < 0 {
				return ""
			}
			return string(v[1 : 1+end])
		}
		end := 0
		for end < len(v) && !isSpace(v[end]) && v[end] != ';' {
			end++
		}
		return string(v[:end])
	}
}

func indexFold(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if asciiEqualFold(b[i:i+len(s)], s) {
			return i
		}
	}
	return -1
}

// asciiEqualFold compares b with the lower-case ASCII s, ignoring case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isSpaceOrSlash(c byte) bool { return isSpace(c) || c == '/' }

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
