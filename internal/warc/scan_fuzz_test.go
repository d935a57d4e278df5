package warc

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// FuzzScanner: any bytes, plain or gzip, are scanned to an error or the
// end without a panic, and every record starts past the one before (the
// scanner never stands still).
func FuzzScanner(f *testing.F) {
	rec := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\n" +
		"Content-Type: application/http;msgtype=response\r\nContent-Length: 40\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n"
	f.Add([]byte(rec + rec))
	f.Add([]byte(rec[:60]))
	var gz bytes.Buffer
	for i := 0; i < 2; i++ {
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(rec))
		zw.Close()
	}
	f.Add(gz.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewScanner(bytes.NewReader(data))
		last := Position{Offset: -1}
		for n := 0; n < 1<<12; n++ {
			r, pos, err := s.Next()
			if err != nil {
				return
			}
			if r == nil {
				t.Fatal("nil record without an error")
			}
			if pos.Offset < last.Offset || (pos.Offset == last.Offset && pos.Gzip == last.Gzip && pos.Index <= last.Index) {
				t.Fatalf("record at %+v after one at %+v", pos, last)
			}
			last = pos
		}
	})
}
