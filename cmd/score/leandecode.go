package main

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// decodeLean is the fast path of decoding a doc line into a leanDoc: one
// pass over the line that checks its syntax as encoding/json does,
// decodes the fields scoring reads and skips the rest (blocks' texts,
// meta, …) without building anything. On segment's simweb docs it takes
// about a third of the time of json.Unmarshal into the same struct, which
// scans the line twice (validity, then decoding) and reflects over every
// field.
//
// It returns false when the line is not valid JSON or holds something it
// leaves to encoding/json: a value of the wrong type, a key repeated or
// spelt in another case (encoding/json matches keys case-insensitively),
// a key with escapes or non-ASCII bytes, a number out of range, nesting
// deeper than encoding/json allows. The caller then decodes the line
// with encoding/json, which gives the same doc or the error to report:
// whenever decodeLean returns true, ld is what json.Unmarshal would have
// decoded into a zero leanDoc (fuzz-tested against it). With withHTML
// false the raw html value is not kept (only the rules read it).
func decodeLean(line []byte, ld *leanDoc, withHTML bool) bool {
	trimmed := bytes.TrimLeft(line, " \t\ufeff") // as jsonl.Decode does
	d := leanDecoder{b: trimmed, base: len(line) - len(trimmed), withHTML: withHTML, top: ld}
	ld.members = make([]member, 0, 24)
	if !d.members((*leanDecoder).topField, false) {
		return false
	}
	d.space()
	return d.i == len(d.b)
}

// maxDepth is encoding/json's nesting limit; deeper lines go to it.
const maxDepth = 10000

// leanDecoder is the state of decodeLean: the line, the position in it
// and the objects being filled.
type leanDecoder struct {
	b []byte
	i int
	// base is the offset of b in the line.
	base     int
	depth    int
	withHTML bool
	// The objects being decoded.
	top   *leanDoc
	link  *record.Link
	block *leanBlock
	// prevContext is the raw text of the last link context decoded, and
	// prevContextStr its string.
	prevContext    []byte
	prevContextStr string
	// scratch and ends are strings' buffers.
	scratch []byte
	ends    []int
}

func (d *leanDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// members walks the members of the object at d.i, calling field with each
// key once d.i is at its value; field decodes or skips the value and
// returns the key's bit (0 for unknown keys) and whether all went well.
// skipping: the object is skipped (its keys are only checked).
func (d *leanDecoder) members(field func(d *leanDecoder, key []byte) (uint32, bool), skipping bool) bool {
	if d.i >= len(d.b) || d.b[d.i] != '{' {
		return false
	}
	d.depth++
	if d.depth > maxDepth {
		return false
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		d.depth--
		return true
	}
	top := d.depth == 1 && !skipping
	var seen uint32
	for {
		start := d.i
		var key []byte
		var ok bool
		if skipping {
			_, _, _, ok = d.stringSpan()
		} else {
			key, ok = d.key()
		}
		if !ok {
			return false
		}
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return false
		}
		d.i++
		d.space()
		bit, ok := field(d, key)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if top {
			d.top.members = append(d.top.members, member{start: d.base + start, end: d.base + d.i, replaced: replacedKeys[string(key)]})
		}
		d.space()
		if d.i >= len(d.b) {
			return false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
			d.space()
		case '}':
			d.i++
			d.depth--
			return true
		default:
			return false
		}
	}
}

// key returns the raw bytes of the member key at d.i. Keys with escapes
// or non-ASCII bytes are refused (encoding/json's case folding of them is
// left to it).
func (d *leanDecoder) key() ([]byte, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false
	}
	start := d.i + 1
	for j := start; j < len(d.b); j++ {
		c := d.b[j]
		switch {
		case c == '"':
			d.i = j + 1
			return d.b[start:j], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

// unknown skips the value of a key the target does not have, after
// checking that the key is not a case variant of one it has.
func (d *leanDecoder) unknown(key []byte, names []string) (uint32, bool) {
	for _, n := range names {
		if len(n) == len(key) && bytes.EqualFold(key, []byte(n)) {
			return 0, false
		}
	}
	return 0, d.skip()
}

var topNames = []string{"url", "title", "description", "content", "html", "tokens", "links", "blocks",
	"depth", "priority", "parent", "anchor", "inherited", "site", "error"}

func (d *leanDecoder) topField(key []byte) (uint32, bool) {
	ld := d.top
	switch string(key) {
	case "url":
		return 1 << 0, d.str(&ld.URL)
	case "title":
		return 1 << 1, d.str(&ld.Title)
	case "description":
		return 1 << 2, d.str(&ld.Description)
	case "content":
		return 1 << 3, d.str(&ld.Content)
	case "html":
		start := d.i
		if !d.skip() {
			return 0, false
		}
		if d.withHTML {
			ld.HTML = append([]byte(nil), d.b[start:d.i]...)
		}
		return 1 << 4, true
	case "tokens":
		return 1 << 5, d.strings(&ld.Tokens)
	case "links":
		return 1 << 6, d.links(&ld.Links)
	case "blocks":
		return 1 << 7, d.blocks(&ld.Blocks)
	case "depth":
		return 1 << 8, d.int(&ld.Depth)
	case "priority":
		return 1 << 9, d.float(&ld.Priority)
	case "parent":
		return 1 << 10, d.str(&ld.Parent)
	case "anchor":
		return 1 << 11, d.str(&ld.Lineage.Anchor)
	case "inherited":
		return 1 << 12, d.float(&ld.Inherited)
	case "site":
		return 1 << 13, d.str(&ld.Site)
	case "error":
		return 1 << 14, d.str(&ld.Error)
	}
	return d.unknown(key, topNames)
}

var linkNames = []string{"url", "anchor", "context", "block", "internal", "nofollow", "tag", "tokens"}

func (d *leanDecoder) linkField(key []byte) (uint32, bool) {
	l := d.link
	switch string(key) {
	case "url":
		return 1 << 0, d.str(&l.URL)
	case "anchor":
		return 1 << 1, d.str(&l.Anchor)
	case "context":
		return 1 << 2, d.context(&l.Context)
	case "block":
		return 1 << 3, d.int(&l.Block)
	case "internal":
		return 1 << 4, d.bool(&l.Internal)
	case "nofollow":
		return 1 << 5, d.bool(&l.Nofollow)
	case "tag":
		return 1 << 6, d.str(&l.Tag)
	case "tokens":
		return 1 << 7, d.strings(&l.Tokens)
	}
	return d.unknown(key, linkNames)
}

var blockNames = []string{"id", "kind"}

func (d *leanDecoder) blockField(key []byte) (uint32, bool) {
	switch string(key) {
	case "id":
		return 1 << 0, d.int(&d.block.ID)
	case "kind":
		return 1 << 1, d.str(&d.block.Kind)
	}
	return d.unknown(key, blockNames)
}

// str decodes a string (null leaves *s as it is).
func (d *leanDecoder) str(s *string) bool {
	if d.null() {
		return true
	}
	v, ok := d.stringValue()
	if ok {
		*s = v
	}
	return ok
}

// null consumes a null literal, reporting whether there was one.
func (d *leanDecoder) null() bool {
	if bytes.HasPrefix(d.b[d.i:], []byte("null")) {
		d.i += 4
		return true
	}
	return false
}

// strings decodes an array of strings (null: nil; null elements: "").
func (d *leanDecoder) strings(dst *[]string) bool {
	if d.null() {
		*dst = nil
		return true
	}
	// The strings are decoded into one buffer and made one string, which
	// the elements slice: one allocation for all of them.
	text := d.scratch[:0]
	ends := d.ends[:0]
	ok := d.array(func() bool {
		if d.null() {
			ends = append(ends, len(text))
			return true
		}
		raw, escaped, nonASCII, ok := d.stringSpan()
		if !ok {
			return false
		}
		if !escaped && (!nonASCII || utf8.Valid(raw)) {
			text = append(text, raw...)
		} else {
			text = append(text, unquote(raw)...)
		}
		ends = append(ends, len(text))
		return true
	})
	d.scratch, d.ends = text, ends
	if !ok {
		return false
	}
	all := string(text)
	out := make([]string, len(ends))
	start := 0
	for i, end := range ends {
		out[i] = all[start:end]
		start = end
	}
	*dst = out
	return true
}

// links decodes an array of links (null: nil; null elements: zero links).
func (d *leanDecoder) links(dst *[]record.Link) bool {
	if d.null() {
		*dst = nil
		return true
	}
	out := make([]record.Link, 0, 64)
	ok := d.array(func() bool {
		out = append(out, record.Link{})
		if d.null() {
			return true
		}
		d.link = &out[len(out)-1]
		return d.members((*leanDecoder).linkField, false)
	})
	*dst = out
	return ok
}

// blocks decodes an array of blocks' ids and kinds.
func (d *leanDecoder) blocks(dst *[]leanBlock) bool {
	if d.null() {
		*dst = nil
		return true
	}
	out := make([]leanBlock, 0, 32)
	ok := d.array(func() bool {
		out = append(out, leanBlock{})
		if d.null() {
			return true
		}
		d.block = &out[len(out)-1]
		return d.members((*leanDecoder).blockField, false)
	})
	*dst = out
	return ok
}

// array walks the elements of the array at d.i, calling elem at each.
func (d *leanDecoder) array(elem func() bool) bool {
	if d.i >= len(d.b) || d.b[d.i] != '[' {
		return false
	}
	d.depth++
	if d.depth > maxDepth {
		return false
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		d.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		d.space()
		if d.i >= len(d.b) {
			return false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
			d.space()
		case ']':
			d.i++
			d.depth--
			return true
		default:
			return false
		}
	}
}

// int decodes an integer as encoding/json does into an int: a number
// literal that strconv.ParseInt takes (no fraction or exponent).
func (d *leanDecoder) int(v *int) bool {
	if d.null() {
		return true
	}
	start := d.i
	if !d.number() {
		return false
	}
	n, err := strconv.ParseInt(string(d.b[start:d.i]), 10, strconv.IntSize)
	if err != nil {
		return false
	}
	*v = int(n)
	return true
}

func (d *leanDecoder) float(v *float64) bool {
	if d.null() {
		return true
	}
	start := d.i
	if !d.number() {
		return false
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	if err != nil {
		return false
	}
	*v = f
	return true
}

func (d *leanDecoder) bool(v *bool) bool {
	switch {
	case d.null():
	case bytes.HasPrefix(d.b[d.i:], []byte("true")):
		d.i += 4
		*v = true
	case bytes.HasPrefix(d.b[d.i:], []byte("false")):
		d.i += 5
		*v = false
	default:
		return false
	}
	return true
}

// number consumes a number literal of JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *leanDecoder) number() bool {
	b, i := d.b, d.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i++; i < len(b) && isDigit(b[i]); i++ {
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		for ; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return false
		}
		for ; i < len(b) && isDigit(b[i]); i++ {
		}
	}
	d.i = i
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skip checks and skips any value.
func (d *leanDecoder) skip() bool {
	if d.i >= len(d.b) {
		return false
	}
	switch c := d.b[d.i]; {
	case c == '"':
		_, _, _, ok := d.stringSpan()
		return ok
	case c == '{':
		return d.members(skipMember, true)
	case c == '[':
		return d.array(d.skip)
	case c == 't':
		if bytes.HasPrefix(d.b[d.i:], []byte("true")) {
			d.i += 4
			return true
		}
	case c == 'f':
		if bytes.HasPrefix(d.b[d.i:], []byte("false")) {
			d.i += 5
			return true
		}
	case c == 'n':
		return d.null()
	case c == '-' || isDigit(c):
		return d.number()
	}
	return false
}

func skipMember(d *leanDecoder, _ []byte) (uint32, bool) { return 0, d.skip() }

// lsb and msb are the lowest and highest bit of each byte of a word.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// strClass marks the bytes a string scan stops at: the quote, the
// backslash and control characters (invalid in a string).
var strClass = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// stringSpan checks and skips the string at d.i, returning its contents
// (between the quotes, still escaped), whether it has escapes and whether
// it has bytes outside ASCII.
func (d *leanDecoder) stringSpan() (raw []byte, escaped, nonASCII, ok bool) {
	b := d.b
	if d.i >= len(b) || b[d.i] != '"' {
		return nil, false, false, false
	}
	start := d.i + 1
	var high byte
	var high8 uint64
	for j := start; j < len(b); j++ {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character.
		for j+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[j:])
			q, bs := x^(lsb*'"'), x^(lsb*'\\')
			if ((x-lsb*0x20)&^x|(q-lsb)&^q|(bs-lsb)&^bs)&msb != 0 {
				break
			}
			high8 |= x
			j += 8
		}
		if j >= len(b) {
			break
		}
		c := b[j]
		if !strClass[c] {
			high |= c
			continue
		}
		switch {
		case c == '"':
			d.i = j + 1
			return b[start:j], escaped, high >= utf8.RuneSelf || high8&msb != 0, true
		case c < 0x20:
			return nil, false, false, false
		}
		// A backslash.
		escaped = true
		j++
		if j >= len(b) {
			return nil, false, false, false
		}
		switch b[j] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if j+4 >= len(b) || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
				return nil, false, false, false
			}
			j += 4
		default:
			return nil, false, false, false
		}
	}
	return nil, false, false, false
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// stringValue decodes the string at d.i as encoding/json does: escapes
// resolved, a lone surrogate and each byte of invalid UTF-8 replaced by
// U+FFFD.
func (d *leanDecoder) stringValue() (string, bool) {
	raw, escaped, nonASCII, ok := d.stringSpan()
	if !ok {
		return "", false
	}
	return decodeString(raw, escaped, nonASCII), true
}

// decodeString is the string of the contents raw of a checked string.
func decodeString(raw []byte, escaped, nonASCII bool) string {
	if !escaped && (!nonASCII || utf8.Valid(raw)) {
		return string(raw)
	}
	return unquote(raw)
}

// context decodes a link's context, which the links of a block often
// share: the same text as the previous link's is the same string.
func (d *leanDecoder) context(s *string) bool {
	if d.null() {
		return true
	}
	// The previous context again: its bytes followed by a quote. They
	// were checked as a whole string body, so that quote closes this one.
	if p := d.prevContext; p != nil {
		if end := d.i + 1 + len(p); end < len(d.b) && d.b[d.i] == '"' && d.b[end] == '"' && bytes.Equal(d.b[d.i+1:end], p) {
			d.i = end + 1
			*s = d.prevContextStr
			return true
		}
	}
	raw, escaped, nonASCII, ok := d.stringSpan()
	if !ok {
		return false
	}
	if d.prevContext == nil || !bytes.Equal(raw, d.prevContext) {
		d.prevContext, d.prevContextStr = raw, decodeString(raw, escaped, nonASCII)
	}
	*s = d.prevContextStr
	return true
}

// unquote resolves the escapes of a checked string's contents and
// replaces invalid UTF-8, as encoding/json's unquote does.
func unquote(s []byte) string {
	out := make([]byte, 0, len(s)+2*utf8.UTFMax)
	for r := 0; r < len(s); {
		c := s[r]
		switch {
		case c == '\\':
			r++
			switch s[r] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				rr := hex4(s[r+1:])
				r += 5
				if utf16.IsSurrogate(rr) {
					if r+6 <= len(s) && s[r] == '\\' && s[r+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != utf8.RuneError {
							r += 6
							out = utf8.AppendRune(out, dec)
							continue
						}
					}
					rr = utf8.RuneError
				}
				out = utf8.AppendRune(out, rr)
				continue
			default: // " \ /
				out = append(out, s[r])
			}
			r++
		case c < utf8.RuneSelf:
			out = append(out, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			if rr == utf8.RuneError && size == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, s[r:r+size]...)
			}
			r += size
		}
	}
	return string(out)
}

// hex4 is the value of the four hex digits at the start of b (checked).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c >= 'a':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
