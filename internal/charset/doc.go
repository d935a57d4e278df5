// Package charset decides the character encoding of a fetched HTML body and
// decodes it to UTF-8.
//
// The decision follows the order of the WHATWG encoding sniffing algorithm:
// a byte order mark, then the charset parameter of the Content-Type header,
// then a <meta charset> or <meta http-equiv="content-type"> in the first
// 1024 bytes, then the encoding of an <?xml …?> declaration (XHTML pages
// without a meta), then statistical detection (gogs/chardet) for bodies
// that declare nothing. Two departures from what browsers do, both because
// Chinese sites need them:
//
//   - every GB label (gb2312, gbk, gb18030, x-gbk, …) is decoded with
//     GB18030, a superset, because pages labelled gb2312 routinely use GBK
//     characters and x/text's GBK decoder cannot read GB18030's four-byte
//     sequences;
//   - undeclared bytes that are not UTF-8 are never assumed to be
//     windows-1252 (what x/net/html/charset says for an undeclared GBK or
//     Big5 page); the detector decides, and a candidate that decodes the
//     sample without errors wins over one that does not.
//
// Declarations the bytes contradict are overridden, since servers
// configured with one global charset serve pages in another daily: a
// UTF-8 declaration on a body that is mostly invalid UTF-8 and that the
// detector reads as a CJK encoding, and a legacy declaration (gbk, big5,
// windows-1252, …) on a body that is entirely valid UTF-8 with at least
// eight multi-byte characters, which legacy text practically never is.
//
// The decoded text is always valid UTF-8: bytes that cannot be decoded
// become U+FFFD.
package charset
