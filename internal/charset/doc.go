// Package charset decides the character encoding of a fetched HTML body and
// decodes it to UTF-8.
//
// The decision follows the order of the WHATWG encoding sniffing algorithm:
// a byte order mark, then the charset parameter of the Content-Type header,
// then a <meta charset> or <meta http-equiv="content-type"> in the first
// 1024 bytes, then statistical detection (gogs/chardet) for bodies that
// declare nothing. Two departures from what browsers do, both because
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
// A declaration of UTF-8 that the body contradicts (invalid UTF-8 where a
// detector is confident of a CJK encoding) is overridden, since servers
// configured with a global "charset=utf-8" serve legacy GBK pages daily.
//
// The decoded text is always valid UTF-8: bytes that cannot be decoded
// become U+FFFD.
package charset
