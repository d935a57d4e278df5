package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// ErrFormat marks input that is not a valid WARC record.
var ErrFormat = errors.New("not a valid WARC record")

// Reader reads the records of a .warc.gz file, or of a plain WARC file
// (told apart by the gzip magic). In a .warc.gz it insists on one gzip
// member per record, the layout Writer produces and indexes rely on.
type Reader struct {
	br    *bufio.Reader
	zr    *gzip.Reader
	count int
	plain int8 // 0: not known yet, 1: plain, -1: gzip
}

// NewReader reads records from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReader(r)}
}

// Next returns the next record, or io.EOF after the last.
func (r *Reader) Next() (*Record, error) {
	if r.plain == 0 {
		magic, err := r.br.Peek(2)
		if err == io.EOF || (err == nil && len(magic) == 0) {
			return nil, io.EOF
		}
		r.plain = -1
		if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
			r.plain = 1
		}
	}
	if r.plain == 1 {
		if _, err := r.br.Peek(1); err == io.EOF {
			return nil, io.EOF
		}
		r.count++
		rec, err := readRecord(r.br, false)
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", r.count, err)
		}
		return rec, nil
	}
	if r.zr == nil {
		zr, err := gzip.NewReader(r.br)
		if err != nil {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("record %d: gzip: %w", r.count+1, err)
		}
		r.zr = zr
	} else if err := r.zr.Reset(r.br); err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("record %d: gzip: %w", r.count+1, err)
	}
	r.zr.Multistream(false)
	r.count++
	rec, err := readRecord(bufio.NewReader(r.zr), true)
	if err != nil {
		return nil, fmt.Errorf("record %d: %w", r.count, err)
	}
	return rec, nil
}

// readRecord parses one record and, when member is set, checks that its
// gzip member ends with it.
func readRecord(br *bufio.Reader, member bool) (*Record, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("%w: no version line: %v", ErrFormat, err)
	}
	if strings.TrimRight(line, "\r\n") != Version && strings.TrimRight(line, "\r\n") != "WARC/1.0" {
		return nil, fmt.Errorf("%w: version line %q", ErrFormat, strings.TrimSpace(line))
	}
	rec := &Record{}
	length := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("%w: headers end early: %v", ErrFormat, err)
		}
		if !strings.HasSuffix(line, "\r\n") {
			return nil, fmt.Errorf("%w: header line without CRLF: %q", ErrFormat, line)
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q", ErrFormat, line)
		}
		value = strings.TrimSpace(value)
		switch {
		case strings.EqualFold(name, "WARC-Type"):
			rec.Type = value
		case strings.EqualFold(name, "Content-Length"):
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: Content-Length %q", ErrFormat, value)
			}
			length = n
		default:
			rec.Headers = append(rec.Headers, Header{name, value})
		}
	}
	if rec.Type == "" || length < 0 {
		return nil, fmt.Errorf("%w: WARC-Type or Content-Length missing", ErrFormat)
	}
	for _, name := range []string{"WARC-Record-ID", "WARC-Date"} {
		if rec.Get(name) == "" {
			return nil, fmt.Errorf("%w: %s missing", ErrFormat, name)
		}
	}
	block, err := readBlock(br, length)
	if err != nil {
		return nil, err
	}
	rec.Block = block
	var end [4]byte
	if _, err := io.ReadFull(br, end[:]); err != nil || !bytes.Equal(end[:], []byte("\r\n\r\n")) {
		return nil, fmt.Errorf("%w: record does not end with CRLF CRLF", ErrFormat)
	}
	if !member {
		return rec, nil
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%w: more than one record in a gzip member", ErrFormat)
	}
	return rec, nil
}
