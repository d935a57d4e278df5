package warc

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Version is the WARC version written.
const Version = "WARC/1.1"

// Header is one WARC named field; the order of fields is kept.
type Header struct{ Name, Value string }

// Record is one WARC record.
type Record struct {
	// Type is the WARC-Type: warcinfo, request, response, …
	Type string
	// Headers are the named fields other than WARC-Type and
	// Content-Length, which the writer adds.
	Headers []Header
	// Block is the record's content block.
	Block []byte
}

// Get returns the value of the named field, or "".
func (r *Record) Get(name string) string {
	for _, h := range r.Headers {
		if equalFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// Exchange is one HTTP request and its response as they went over the
// wire (HTTP/2 exchanges are written in HTTP/1.1 form, as wget does).
type Exchange struct {
	TargetURI string
	Date      time.Time
	// IP is the address of the server, when known.
	IP string
	// Request is the request head (and body, if any).
	Request []byte
	// ResponseHead is the status line and headers, ending with CRLF CRLF.
	ResponseHead []byte
	// Body is the response body as received (still content-encoded).
	Body []byte
	// Truncated is the WARC-Truncated reason ("length", "time",
	// "disconnect", "unspecified") when Body is incomplete.
	Truncated string
}

// Writer writes WARC records, each as its own gzip member. It is safe for
// concurrent use; the two records of an exchange are written together.
type Writer struct {
	mu     sync.Mutex
	bw     *bufio.Writer
	zw     *gzip.Writer
	closer io.Closer
	err    error
}

// Create creates a WARC file and writes its warcinfo record naming the
// software. The name says the format, as for every output of the
// project: FILE.warc.gz has one gzip member per record, any other name but
// .zst (which WARC readers do not agree on) is plain WARC.
func Create(path, software string) (*Writer, error) {
	if strings.HasSuffix(path, ".zst") {
		return nil, fmt.Errorf("create warc %s: zstd-compressed WARC is not written; name the file .warc.gz (gzip) or .warc (plain)", path)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create warc: %w", err)
	}
	w := NewWriter(f)
	if !strings.HasSuffix(path, ".gz") {
		w = NewPlainWriter(f)
	}
	w.closer = f
	info := fmt.Sprintf("software: %s\r\nformat: WARC File Format 1.1\r\nconformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n", software)
	if err := w.Write(Record{
		Type: "warcinfo",
		Headers: []Header{
			{"WARC-Record-ID", NewRecordID()},
			{"WARC-Date", formatDate(time.Now())},
			{"WARC-Filename", baseName(path)},
			{"Content-Type", "application/warc-fields"},
		},
		Block: []byte(info),
	}); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// NewWriter writes records to w. Close does not close w.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriterSize(w, 64<<10)
	return &Writer{bw: bw, zw: gzip.NewWriter(bw)}
}

// NewPlainWriter writes uncompressed records to w. Close does not close w.
func NewPlainWriter(w io.Writer) *Writer {
	return &Writer{bw: bufio.NewWriterSize(w, 64<<10)}
}

// Write writes one record.
func (w *Writer) Write(r Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeLocked(r)
}

// WriteExchange writes the request and response records of an exchange.
func (w *Writer) WriteExchange(ex Exchange) error {
	date := formatDate(ex.Date)
	reqID, respID := NewRecordID(), NewRecordID()
	req := Record{Type: "request", Headers: []Header{
		{"WARC-Record-ID", reqID},
		{"WARC-Date", date},
		{"WARC-Target-URI", ex.TargetURI},
		{"WARC-Concurrent-To", respID},
		{"Content-Type", "application/http;msgtype=request"},
		{"WARC-Block-Digest", Digest(ex.Request)},
	}, Block: ex.Request}
	block := make([]byte, 0, len(ex.ResponseHead)+len(ex.Body))
	block = append(append(block, ex.ResponseHead...), ex.Body...)
	resp := Record{Type: "response", Headers: []Header{
		{"WARC-Record-ID", respID},
		{"WARC-Date", date},
		{"WARC-Target-URI", ex.TargetURI},
		{"WARC-Concurrent-To", reqID},
		{"Content-Type", "application/http;msgtype=response"},
		{"WARC-Block-Digest", Digest(block)},
		{"WARC-Payload-Digest", Digest(ex.Body)},
	}, Block: block}
	if ex.IP != "" {
		req.Headers = append(req.Headers, Header{"WARC-IP-Address", ex.IP})
		resp.Headers = append(resp.Headers, Header{"WARC-IP-Address", ex.IP})
	}
	if ex.Truncated != "" {
		resp.Headers = append(resp.Headers, Header{"WARC-Truncated", ex.Truncated})
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.writeLocked(req); err != nil {
		return err
	}
	return w.writeLocked(resp)
}

func (w *Writer) writeLocked(r Record) error {
	if w.err != nil {
		return w.err
	}
	var head bytes.Buffer
	head.WriteString(Version + "\r\n")
	head.WriteString("WARC-Type: " + r.Type + "\r\n")
	for _, h := range r.Headers {
		head.WriteString(h.Name + ": " + h.Value + "\r\n")
	}
	head.WriteString("Content-Length: " + strconv.Itoa(len(r.Block)) + "\r\n\r\n")
	var dst io.Writer = w.bw
	if w.zw != nil {
		w.zw.Reset(w.bw)
		dst = w.zw
	}
	for _, b := range [][]byte{head.Bytes(), r.Block, []byte("\r\n\r\n")} {
		if _, err := dst.Write(b); err != nil {
			w.err = fmt.Errorf("write warc: %w", err)
			return w.err
		}
	}
	if w.zw == nil {
		return nil
	}
	if err := w.zw.Close(); err != nil { // ends this record's gzip member
		w.err = fmt.Errorf("write warc: %w", err)
	}
	return w.err
}

// Flush writes buffered records out.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("write warc: %w", err)
	}
	return w.err
}

// Close flushes and closes the file opened by Create.
func (w *Writer) Close() error {
	err := w.Flush()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closer != nil {
		if cerr := w.closer.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close warc: %w", cerr)
		}
		w.closer = nil
	}
	return err
}

// NewRecordID returns a fresh <urn:uuid:…> record id (UUID version 4).
func NewRecordID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Digest gives the "sha1:BASE32" digest WARC tools expect.
func Digest(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

func formatDate(t time.Time) string {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}

func baseName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' || path[i] == os.PathSeparator {
			return path[i+1:]
		}
	}
	return path
}

func equalFold(a, b string) bool { return bytes.EqualFold([]byte(a), []byte(b)) }
