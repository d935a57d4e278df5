package charset

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// Source says which step of the sniffing algorithm decided the encoding.
type Source string

// The steps, in the order they are tried.
const (
	SourceBOM    Source = "bom"
	SourceHeader Source = "header"
	SourceMeta   Source = "meta"
	// SourceXML is the encoding of an <?xml …?> declaration, used for
	// XHTML pages that have no meta.
	SourceXML      Source = "xml"
	SourceDetected Source = "detected"
	// SourceDefault is used for bodies with no declaration whose bytes are
	// plain ASCII or valid UTF-8.
	SourceDefault Source = "default"
)

// Result is a decided encoding.
type Result struct {
	// Name is the WHATWG name of the encoding, lower-case: "utf-8", "gbk",
	// "gb18030", "big5", "shift_jis", "euc-kr", "windows-1252",
	// "utf-16le", …
	Name string
	// Source is the step that decided it.
	Source Source
	// Encoding decodes the body (GB18030 for every GB name).
	Encoding encoding.Encoding
	// bomLen is the length of the byte order mark to skip.
	bomLen int
	// bodyValid records that the whole body was found to be valid UTF-8,
	// so decoding need not check it again.
	bodyValid bool
}

// UTF8 is the name of UTF-8.
const UTF8 = "utf-8"

// prescanLimit is how far the meta prescan looks, as in the WHATWG spec.
const prescanLimit = 1024

// ErrUnsupported marks a label that names no encoding known to the WHATWG
// Encoding Standard.
var ErrUnsupported = errors.New("unsupported charset")

// Decode decides the encoding of an HTML body served with the given
// Content-Type header value (which may be empty) and returns the body as
// UTF-8, with the name of the encoding decided. The text is valid UTF-8
// whatever the input; err is non-nil only when decoding failed part way
// (the text then holds what could be decoded, with U+FFFD for the rest).
func Decode(body []byte, contentType string) (text string, name string, err error) {
	r := Determine(body, contentType)
	text, err = r.decode(body)
	return text, r.Name, err
}

// Determine decides the encoding of body without decoding it.
func Determine(body []byte, contentType string) Result {
	if r, ok := sniffBOM(body); ok {
		return r
	}
	if label := headerCharset(contentType); label != "" {
		// A UTF-16 label on a body without a NUL byte in its first KB (no
		// BOM either) is a mislabelled ASCII-compatible page.
		if enc, name, err := Lookup(label); err == nil && !(strings.HasPrefix(name, "utf-16") && !hasNUL(body)) {
			return overrideFalseLegacy(body, overrideFalseUTF8(body, Result{Name: name, Source: SourceHeader, Encoding: enc}))
		}
	}
	if label := prescan(body); label != "" {
		if enc, name, err := Lookup(label); err == nil {
			// A meta can only declare an ASCII-compatible encoding: the
			// spec turns UTF-16 into UTF-8 and x-user-defined into
			// windows-1252.
			switch {
			case strings.HasPrefix(name, "utf-16"):
				enc, name = encoding.Nop, UTF8
			case name == "x-user-defined":
				enc, name, _ = Lookup("windows-1252")
			}
			return overrideFalseLegacy(body, overrideFalseUTF8(body, Result{Name: name, Source: SourceMeta, Encoding: enc}))
		}
	}
	if label := xmlDeclEncoding(body); label != "" {
		if enc, name, err := Lookup(label); err == nil && !strings.HasPrefix(name, "utf-16") {
			return overrideFalseLegacy(body, overrideFalseUTF8(body, Result{Name: name, Source: SourceXML, Encoding: enc}))
		}
	}
	return detect(body)
}

// xmlDeclEncoding gives the encoding of an XML declaration at the start of
// body (<?xml version="1.0" encoding="gb2312"?>), or "".
func xmlDeclEncoding(body []byte) string {
	b := bytes.TrimLeft(body[:min(len(body), prescanLimit)], " \t\r\n")
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(b, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := b[:end]
	i := indexFold(decl, "encoding")
	if i < 0 {
		return ""
	}
	_, value, _, ok := nextAttr(decl, i)
	if !ok {
		return ""
	}
	return value
}

// Lookup finds the encoding of a label ("GB2312", "utf8", "x-sjis", …) and
// gives its canonical WHATWG name. Every GB label decodes with GB18030.
func Lookup(label string) (encoding.Encoding, string, error) {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %q", ErrUnsupported, label)
	}
	name, err := htmlindex.Name(enc)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %q", ErrUnsupported, label)
	}
	switch name {
	case "gbk", "gb18030":
		enc = simplifiedchinese.GB18030
	case UTF8:
		enc = encoding.Nop
	}
	return enc, name, nil
}

// sniffBOM recognises the UTF-8 and UTF-16 byte order marks.
func sniffBOM(body []byte) (Result, bool) {
	switch {
	case bytes.HasPrefix(body, []byte{0xEF, 0xBB, 0xBF}):
		return Result{Name: UTF8, Source: SourceBOM, Encoding: encoding.Nop, bomLen: 3}, true
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		return Result{Name: "utf-16be", Source: SourceBOM,
			Encoding: unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), bomLen: 2}, true
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		return Result{Name: "utf-16le", Source: SourceBOM,
			Encoding: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), bomLen: 2}, true
	}
	return Result{}, false
}

func hasNUL(body []byte) bool {
	return bytes.IndexByte(body[:min(len(body), prescanLimit)], 0) >= 0
}

// headerCharset gives the charset parameter of a Content-Type value, also
// from values mime.ParseMediaType rejects (servers send many).
func headerCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		return params["charset"]
	}
	return charsetFromContent([]byte(contentType))
}

// overrideFalseUTF8 replaces a UTF-8 declaration that the body's bytes
// contradict by what the detector finds, when it finds a multi-byte
// encoding that decodes them cleanly. A body that is mostly UTF-8 (a cut
// last character, a stray byte) keeps its declaration.
func overrideFalseUTF8(body []byte, r Result) Result {
	if r.Name != UTF8 {
		return r
	}
	if validUTF8(body) {
		r.bodyValid = true
		return r
	}
	if mostlyUTF8(body) {
		return r
	}
	d, ok := detectLegacy(body)
	if ok && d.multiByte() {
		return d
	}
	return r
}

// minUTF8Evidence is how many multi-byte characters a body declared in a
// legacy encoding must hold, all valid UTF-8, to be read as UTF-8.
const minUTF8Evidence = 8

// overrideFalseLegacy reads a body declared in a legacy encoding as UTF-8
// when all of it is valid UTF-8 with enough multi-byte characters: text in
// GBK, Big5 or windows-1252 practically never is, while servers that label
// every page "charset=gbk" serve UTF-8 pages too.
func overrideFalseLegacy(body []byte, r Result) Result {
	if r.Name == UTF8 || strings.HasPrefix(r.Name, "utf-16") || r.Name == "replacement" {
		return r
	}
	if !validUTF8(body) || countMultiByte(body, minUTF8Evidence) < minUTF8Evidence {
		return r
	}
	return Result{Name: UTF8, Source: SourceDetected, Encoding: encoding.Nop, bodyValid: true}
}

// countMultiByte counts the multi-byte characters of valid UTF-8 b, up to
// limit.
func countMultiByte(b []byte, limit int) int {
	n := 0
	for _, c := range b {
		if c >= 0xC0 { // a lead byte
			n++
			if n >= limit {
				break
			}
		}
	}
	return n
}

func (r Result) multiByte() bool {
	switch r.Name {
	case "gbk", "gb18030", "big5", "shift_jis", "euc-jp", "euc-kr":
		return true
	}
	return false
}

// decode converts body to valid UTF-8 with the decided encoding.
func (r Result) decode(body []byte) (string, error) {
	body = body[r.bomLen:]
	if r.Encoding == nil || r.Encoding == encoding.Nop {
		if r.bodyValid || validUTF8(body) {
			return string(body), nil
		}
		return strings.ToValidUTF8(string(body), "\uFFFD"), nil
	}
	out, err := r.Encoding.NewDecoder().Bytes(body)
	if err != nil {
		return strings.ToValidUTF8(string(out), "\uFFFD"), fmt.Errorf("decode %s: %w", r.Name, err)
	}
	if !validUTF8(out) {
		return strings.ToValidUTF8(string(out), "\uFFFD"), nil
	}
	return string(out), nil
}
