package fetcher

import (
	"bytes"
)

// KindNotHTML is the kind of a body labelled as text that holds binary
// data: "not html: zip". The status and content type stay in the record.
const KindNotHTML = "not html"

// sniffHeader is how much of a body the binary check reads: the WHATWG
// MIME Sniffing Standard's resource header.
const sniffHeader = 1445

// magic is a file signature at a fixed offset.
type magic struct {
	offset int
	sig    string
	name   string
}

// signatures of common binary formats servers send mislabelled as text.
// Longer, more specific signatures come before shorter ones that share a
// prefix. Formats that start with a zero byte or another binary data
// byte need no entry: the byte rule catches them.
var signatures = []magic{
	{0, "PK\x03\x04", "zip"},
	{0, "PK\x05\x06", "zip"}, // empty archive
	{0, "PK\x07\x08", "zip"}, // spanned archive
	{0, "%PDF-", "pdf"},
	{0, "\x89PNG\r\n\x1a\n", "png"},
	{0, "\xff\xd8\xff", "jpeg"},
	{0, "GIF87a", "gif"},
	{0, "GIF89a", "gif"},
	{0, "II*\x00", "tiff"},
	{0, "MM\x00*", "tiff"},
	{0, "wOFF", "woff"},
	{0, "wOF2", "woff2"},
	{0, "\x1f\x8b\x08", "gzip"},
	{0, "\x28\xb5\x2f\xfd", "zstd"},
	{0, "\xfd7zXZ\x00", "xz"},
	{0, "7z\xbc\xaf\x27\x1c", "7z"},
	{0, "Rar!\x1a\x07", "rar"},
	{0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole2"}, // doc, xls, ppt, msi
	{0, "\x7fELF", "elf"},
	{0, "\xca\xfe\xba\xbe", "java-class"},
	{0, "\x00asm", "wasm"},
	{0, "SQLite format 3\x00", "sqlite"},
	{0, "OggS\x00", "ogg"},
	{0, "fLaC", "flac"},
	{0, "\x1a\x45\xdf\xa3", "matroska"}, // mkv, webm
	{4, "ftyp", "mp4"},                  // ISO media: mp4, mov, heic, avif
	{257, "ustar", "tar"},
}

// riffKinds are the formats inside a RIFF container, by form type.
var riffKinds = map[string]string{"WEBP": "webp", "WAVE": "wav", "AVI ": "avi"}

// binaryShare is the share of binary data bytes (isBinaryDataByte) in a
// body's first sniffHeader bytes that makes it binary. Binary data
// without a known signature has about one such byte in ten (27 of the
// 256 byte values); a page of text with a few stray NUL bytes, which
// browsers render, has a handful in its 1,445.
const binaryShare = 0.02

// sniffBinary tells whether a body is binary data, and names its format
// ("zip", "pdf", …, or "binary" when only the byte rule says so). A body
// that starts with a UTF-8 or UTF-16 byte order mark is text. Otherwise
// known signatures are checked, then the share of the WHATWG "binary
// data bytes" (control bytes other than TAB, LF, FF, CR and ESC, which no
// text encoding of the web produces) in the first 1445 bytes: binaryShare
// or more makes the body binary, a few stray ones do not.
func sniffBinary(body []byte) (name string, binary bool) {
	if bytes.HasPrefix(body, []byte{0xfe, 0xff}) || bytes.HasPrefix(body, []byte{0xff, 0xfe}) ||
		bytes.HasPrefix(body, []byte{0xef, 0xbb, 0xbf}) {
		return "", false
	}
	for _, m := range signatures {
		if len(body) >= m.offset+len(m.sig) && string(body[m.offset:m.offset+len(m.sig)]) == m.sig {
			return refine(m.name, body), true
		}
	}
	if len(body) >= 12 && string(body[:4]) == "RIFF" {
		if k, ok := riffKinds[string(body[8:12])]; ok {
			return k, true
		}
	}
	if len(body) >= 10 && string(body[:3]) == "BZh" && body[3] >= '1' && body[3] <= '9' &&
		string(body[4:10]) == "\x31\x41\x59\x26\x53\x59" {
		return "bzip2", true
	}
	if len(body) >= 4 && string(body[:3]) == "ID3" && body[3] >= 2 && body[3] <= 4 {
		return "mp3", true
	}
	head := body[:min(len(body), sniffHeader)]
	n := 0
	for _, b := range head {
		if isBinaryDataByte(b) {
			n++
		}
	}
	if n > 0 && float64(n) >= binaryShare*float64(len(head)) {
		return "binary", true
	}
	return "", false
}

// refine names the office formats that are ZIP archives underneath, by
// the first entry their specifications put in the archive.
func refine(name string, body []byte) string {
	if name != "zip" {
		return name
	}
	head := body[:min(len(body), 512)]
	switch {
	case bytes.Contains(head, []byte("[Content_Types].xml")):
		return "ooxml" // docx, xlsx, pptx
	case bytes.Contains(head, []byte("mimetypeapplication/vnd.oasis.opendocument")):
		return "opendocument"
	case bytes.Contains(head, []byte("mimetypeapplication/epub+zip")):
		return "epub"
	}
	return name
}

// isBinaryDataByte is the WHATWG MIME Sniffing Standard's binary data
// byte: 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F.
func isBinaryDataByte(b byte) bool {
	return b <= 0x08 || b == 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)
}
