package warc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	ex := Exchange{
		TargetURI: "http://example.cn/a", Date: time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), IP: "127.0.0.1",
		Request:      []byte("GET /a HTTP/1.1\r\nHost: example.cn\r\n\r\n"),
		ResponseHead: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"),
		Body:         []byte("<p>森林</p>"),
	}
	if err := w.WriteExchange(ex); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(Record{Type: "metadata", Headers: []Header{{"WARC-Record-ID", NewRecordID()}, {"WARC-Date", "2026-11-22T08:00:00Z"}}, Block: []byte("a: b\r\n")}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	// The reader checks that each record is a gzip member of its own.
	r := NewReader(bytes.NewReader(buf.Bytes()))
	var recs []*Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if len(recs) != 3 || recs[0].Type != "request" || recs[1].Type != "response" || recs[2].Type != "metadata" {
		t.Fatalf("records: %+v", recs)
	}
	if string(recs[1].Block) != string(ex.ResponseHead)+string(ex.Body) {
		t.Errorf("response block %q", recs[1].Block)
	}
	if recs[1].Get("WARC-Payload-Digest") != Digest(ex.Body) || recs[1].Get("WARC-IP-Address") != "127.0.0.1" {
		t.Errorf("headers %+v", recs[1].Headers)
	}
	if recs[0].Get("WARC-Date") != "2026-11-22T08:00:00.000000Z" {
		t.Errorf("date %q", recs[0].Get("WARC-Date"))
	}
	if !strings.HasPrefix(recs[0].Get("WARC-Record-ID"), "<urn:uuid:") {
		t.Errorf("record id %q", recs[0].Get("WARC-Record-ID"))
	}
}

func TestReaderRejects(t *testing.T) {
	rec := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Length: 2\r\n\r\nab\r\n\r\n"
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	tests := map[string][]byte{
		"two records in one member": gz(rec + rec),
		"short block":               gz(strings.Replace(rec, "Content-Length: 2", "Content-Length: 9", 1)),
		"no version":                gz(strings.TrimPrefix(rec, "WARC/1.1\r\n")),
		"missing record id":         gz(strings.Replace(rec, "WARC-Record-ID: <urn:uuid:1>\r\n", "", 1)),
		"plain, not WARC":           []byte("<html>\r\n"),
		"plain, short block":        []byte(strings.Replace(rec, "Content-Length: 2", "Content-Length: 9", 1)),
		// A length no input holds: an error, not an allocation of 40 TB
		// (the test process would die of it).
		"plain, huge length": []byte(strings.Replace(rec, "Content-Length: 2", "Content-Length: 40000000000000", 1)),
		"huge length":        gz(strings.Replace(rec, "Content-Length: 2", "Content-Length: 40000000000000", 1)),
	}
	for name, data := range tests {
		_, err := NewReader(bytes.NewReader(data)).Next()
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v is not ErrFormat", name, err)
		}
		if _, _, err := NewScanner(bytes.NewReader(data)).Next(); err == nil && strings.Contains(name, "huge") {
			t.Errorf("%s: scanner accepted", name)
		}
	}
}
