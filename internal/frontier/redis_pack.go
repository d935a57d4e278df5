package frontier

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// The apply script takes the URLs to queue as MessagePack (a chunk's
// queue rows, qrow…) rather than JSON, and the record of a new URL
// packed in Go but for its sequence number, which the script appends
// (docs/frontier.md, *Sizing*). So the values are written here exactly
// as the scripts' cmsgpack.pack writes them: a record packed in Go and
// one packed by a script are the same bytes (TestRedisPackAgreesWithLua).

// appendMsgpackArray appends the header of an array of n values.
func appendMsgpackArray(b []byte, n int) []byte {
	switch {
	case n <= 15:
		return append(b, 0x90|byte(n))
	case n <= 0xffff:
		return binary.BigEndian.AppendUint16(append(b, 0xdc), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, 0xdd), uint32(n))
}

// appendMsgpackString appends s as a MessagePack string (cmsgpack takes
// no bin types: a Lua string is bytes).
func appendMsgpackString(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= 0xff:
		b = append(b, 0xd9, byte(n))
	case n <= 0xffff:
		b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

// appendMsgpackInt appends n in the smallest integer form.
func appendMsgpackInt(b []byte, n int64) []byte {
	if n >= 0 {
		switch {
		case n <= 127:
			return append(b, byte(n))
		case n <= 0xff:
			return append(b, 0xcc, byte(n))
		case n <= 0xffff:
			return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(n))
		case n <= 0xffffffff:
			return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(n))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcf), uint64(n))
	}
	switch {
	case n >= -32:
		return append(b, byte(n))
	case n >= -128:
		return append(b, 0xd0, byte(n))
	case n >= -32768:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(n))
	case n >= -2147483648:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
}

// appendMsgpackNumber appends a Lua number as cmsgpack does: a whole
// number as an integer, else a 32-bit float when that holds it exactly,
// else a 64-bit one.
func appendMsgpackNumber(b []byte, f float64) []byte {
	if !math.IsInf(f, 0) && f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return appendMsgpackInt(b, int64(f))
	}
	if f32 := float32(f); float64(f32) == f {
		return binary.BigEndian.AppendUint32(append(b, 0xca), math.Float32bits(f32))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(f))
}

// finite refuses NaN and infinities, as the JSON the apply script took
// before refused them.
func finite(fs ...float64) error {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("unsupported value: %v", f)
		}
	}
	return nil
}

// luaText is s as the scripts had it when it came in JSON: each byte of
// invalid UTF-8 replaced by U+FFFD (encoding/json's rule).
func luaText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	j, _ := json.Marshal(s)
	_ = json.Unmarshal(j, &s)
	return s
}

// luaHost is the scripts' hostof and rhost on a URL: what follows the
// scheme's "://" up to the path, query or fragment, without a user. A
// record keeps its host only when it is not this.
func luaHost(u string) string {
	i := strings.IndexAny(u, ":/?#")
	if i < 1 || !strings.HasPrefix(u[i:], "://") {
		return ""
	}
	h := u[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if j := strings.IndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	return h
}

// appendMsgpackRows appends rows as one MessagePack array of arrays;
// their values are strings (as they are: text is made valid UTF-8 where
// the row is built, ids are bytes), integers, and float64s (refused when
// not finite, as JSON refused them).
func appendMsgpackRows(b []byte, rows []scriptRow) ([]byte, error) {
	b = appendMsgpackArray(b, len(rows))
	for _, r := range rows {
		b = appendMsgpackArray(b, len(r))
		for _, v := range r {
			switch x := v.(type) {
			case string:
				b = appendMsgpackString(b, x)
			case int:
				b = appendMsgpackInt(b, int64(x))
			case int64:
				b = appendMsgpackInt(b, x)
			case float64:
				if err := finite(x); err != nil {
					return b, err
				}
				b = appendMsgpackNumber(b, x)
			default:
				return b, fmt.Errorf("a row's value %v (%T) has no MessagePack form here", v, v)
			}
		}
	}
	return b, nil
}

// redisRecordHead packs the record of a URL queued new (redis_record.go:
// the fields from recURL to recMeta, in state Queued) as the array of
// recSeq fields it heads: the apply script appends the sequence number,
// which only the server hands out, and stores it unless the URL is known,
// its host is not clean, it is refused, of the reserve, in a class, or
// its parent is not stored under the parent's own id.
func redisRecordHead(b []byte, u, host, parent, anchor, meta string, prio, inh float64, depth int) []byte {
	if luaHost(u) == host {
		host = "" // a record keeps its host only when the URL does not say it
	}
	b = appendMsgpackArray(b, recSeq)
	b = appendMsgpackString(b, u)
	b = appendMsgpackString(b, host)
	b = appendMsgpackInt(b, int64(Queued))
	b = appendMsgpackNumber(b, prio)
	b = appendMsgpackInt(b, int64(depth))
	b = appendMsgpackString(b, parent)
	b = appendMsgpackString(b, anchor)
	b = appendMsgpackNumber(b, inh)
	return appendMsgpackString(b, meta)
}

// decodeMsgpackArray reads a MessagePack array as cmsgpack writes a
// record (redis_record.go): its values are strings, integers (int64),
// floats (float64), booleans and nil.
func decodeMsgpackArray(b []byte) ([]any, error) {
	d := msgpackReader{b: b}
	n, ok := d.arrayLen()
	if !ok {
		return nil, errors.New("not a MessagePack array")
	}
	out := make([]any, n)
	for i := range out {
		if out[i], ok = d.value(); !ok {
			return nil, fmt.Errorf("MessagePack array: value %d of %d unreadable", i+1, n)
		}
	}
	return out, nil
}

// msgpackReader reads MessagePack values from b.
type msgpackReader struct{ b []byte }

// take returns the next n bytes.
func (d *msgpackReader) take(n int) ([]byte, bool) {
	if n < 0 || len(d.b) < n {
		return nil, false
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v, true
}

// uint reads a big-endian unsigned integer of n bytes.
func (d *msgpackReader) uint(n int) (uint64, bool) {
	v, ok := d.take(n)
	var x uint64
	for _, c := range v {
		x = x<<8 | uint64(c)
	}
	return x, ok
}

func (d *msgpackReader) arrayLen() (int, bool) {
	t, ok := d.take(1)
	switch {
	case !ok:
		return 0, false
	case t[0]&0xf0 == 0x90:
		return int(t[0] & 0x0f), true
	case t[0] == 0xdc:
		n, ok := d.uint(2)
		return int(n), ok
	case t[0] == 0xdd:
		n, ok := d.uint(4)
		return int(n), ok
	}
	return 0, false
}

// value reads one value other than an array or a map.
func (d *msgpackReader) value() (any, bool) {
	t, ok := d.take(1)
	if !ok {
		return nil, false
	}
	c := t[0]
	str := func(n uint64, ok bool) (any, bool) {
		if !ok || n > uint64(len(d.b)) {
			return nil, false
		}
		v, ok := d.take(int(n))
		return string(v), ok
	}
	switch {
	case c <= 0x7f:
		return int64(c), true
	case c >= 0xe0:
		return int64(int8(c)), true
	case c&0xe0 == 0xa0:
		return str(uint64(c&0x1f), true)
	}
	switch c {
	case 0xc0:
		return nil, true
	case 0xc2, 0xc3:
		return c == 0xc3, true
	case 0xd9, 0xc4:
		return str(d.uint(1))
	case 0xda, 0xc5:
		return str(d.uint(2))
	case 0xdb, 0xc6:
		return str(d.uint(4))
	case 0xcc, 0xcd, 0xce, 0xcf:
		n, ok := d.uint(1 << (c - 0xcc))
		return int64(n), ok
	case 0xd0:
		n, ok := d.uint(1)
		return int64(int8(n)), ok
	case 0xd1:
		n, ok := d.uint(2)
		return int64(int16(n)), ok
	case 0xd2:
		n, ok := d.uint(4)
		return int64(int32(n)), ok
	case 0xd3:
		n, ok := d.uint(8)
		return int64(n), ok
	case 0xca:
		n, ok := d.uint(4)
		return float64(math.Float32frombits(uint32(n))), ok
	case 0xcb:
		n, ok := d.uint(8)
		return math.Float64frombits(n), ok
	}
	return nil, false
}

// msgpackNumber is a number decodeMsgpackArray read, as a Lua number;
// false when v is no number.
func msgpackNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
