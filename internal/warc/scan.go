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

// Scanner reads the records of any WARC/1.0 or WARC/1.1 file, as other
// tools write them: uncompressed, one gzip member per record (the usual
// .warc.gz), or several records per gzip member (a whole file gzipped at
// once). Unlike Reader it is lenient about line ends (LF as well as CRLF)
// and about the blank lines between records, and it reports where each
// record starts, so an index can read it again later with ReadRecordAt.
type Scanner struct {
	cr     *CountingReader
	br     *bufio.Reader
	gz     bool
	zr     *gzip.Reader
	member *bufio.Reader // the decompressed current member
	pos    Position      // of the next record in the current member
	count  int
}

// Position locates a record in a file: Offset is the byte offset of the
// record (uncompressed file) or of the gzip member that holds it, Index the
// record's place in that member (0 for per-record gzip).
type Position struct {
	Offset int64
	Index  int
	Gzip   bool
}

// NewScanner reads records from r, telling gzip from plain input by its
// first bytes.
func NewScanner(r io.Reader) *Scanner {
	cr := &CountingReader{R: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	magic, _ := br.Peek(2)
	return &Scanner{cr: cr, br: br, gz: len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b}
}

// offset is the position in the underlying input of the next unread byte.
func (s *Scanner) offset() int64 { return s.cr.N - int64(s.br.Buffered()) }

// Next returns the next record and where it starts, or io.EOF after the
// last.
func (s *Scanner) Next() (*Record, Position, error) {
	if !s.gz {
		skipBlank(s.br)
		pos := Position{Offset: s.offset()}
		if _, err := s.br.Peek(1); err == io.EOF {
			return nil, pos, io.EOF
		}
		s.count++
		rec, err := parseRecord(s.br)
		if err != nil {
			return nil, pos, fmt.Errorf("record %d at offset %d: %w", s.count, pos.Offset, err)
		}
		return rec, pos, nil
	}
	for {
		if s.member != nil {
			skipBlank(s.member)
			if _, err := s.member.Peek(1); err == nil {
				pos := s.pos
				s.pos.Index++
				s.count++
				rec, err := parseRecord(s.member)
				if err != nil {
					return nil, pos, fmt.Errorf("record %d (gzip member at offset %d): %w", s.count, pos.Offset, err)
				}
				return rec, pos, nil
			}
			s.member = nil
		}
		start := s.offset()
		var err error
		if s.zr == nil {
			s.zr, err = gzip.NewReader(s.br)
		} else {
			err = s.zr.Reset(s.br)
		}
		if err == io.EOF {
			return nil, Position{Offset: start, Gzip: true}, io.EOF
		}
		if err != nil {
			return nil, Position{Offset: start, Gzip: true}, fmt.Errorf("gzip member at offset %d: %w", start, err)
		}
		s.zr.Multistream(false)
		s.member = bufio.NewReaderSize(s.zr, 64<<10)
		s.pos = Position{Offset: start, Gzip: true}
	}
}

// ReadRecordAt reads the record at pos of the file r.
func ReadRecordAt(r io.ReaderAt, pos Position) (*Record, error) {
	sr := io.NewSectionReader(r, pos.Offset, 1<<62)
	if !pos.Gzip {
		return parseRecord(bufio.NewReader(sr))
	}
	zr, err := gzip.NewReader(bufio.NewReader(sr))
	if err != nil {
		return nil, fmt.Errorf("gzip member at offset %d: %w", pos.Offset, err)
	}
	zr.Multistream(false)
	br := bufio.NewReader(zr)
	for i := 0; ; i++ {
		skipBlank(br)
		rec, err := parseRecord(br)
		if err != nil {
			return nil, err
		}
		if i == pos.Index {
			return rec, nil
		}
	}
}

// parseRecord reads one record: the version line, the named fields up to
// a blank line, and a block of Content-Length bytes.
func parseRecord(br *bufio.Reader) (*Record, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("%w: no version line", ErrFormat)
	}
	if v := strings.TrimRight(line, "\r\n"); v != "WARC/1.0" && v != "WARC/1.1" {
		return nil, fmt.Errorf("%w: version line %q", ErrFormat, clip(v))
	}
	rec := &Record{}
	length := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("%w: headers end early", ErrFormat)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q", ErrFormat, clip(line))
		}
		value = strings.TrimSpace(value)
		switch {
		case strings.EqualFold(name, "WARC-Type"):
			rec.Type = value
		case strings.EqualFold(name, "Content-Length"):
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: Content-Length %q", ErrFormat, clip(value))
			}
			length = n
		default:
			rec.Headers = append(rec.Headers, Header{name, value})
		}
	}
	if rec.Type == "" || length < 0 {
		return nil, fmt.Errorf("%w: WARC-Type or Content-Length missing", ErrFormat)
	}
	block, err := readBlock(br, length)
	if err != nil {
		return nil, err
	}
	rec.Block = block
	return rec, nil
}

// skipBlank consumes the line ends between records.
func skipBlank(br *bufio.Reader) {
	for {
		b, err := br.Peek(1)
		if err != nil || (b[0] != '\r' && b[0] != '\n') {
			return
		}
		br.ReadByte()
	}
}

// TargetURI is the record's WARC-Target-URI without the angle brackets
// some WARC/1.0 writers put around it.
func (r *Record) TargetURI() string {
	return strings.TrimSuffix(strings.TrimPrefix(r.Get("WARC-Target-URI"), "<"), ">")
}

// ErrNotHTTP marks a record block that is not an HTTP response.
var ErrNotHTTP = errors.New("not an HTTP response")

// SplitHTTP splits an HTTP response block into its head (status line and
// header fields, with the blank line) and its payload.
func SplitHTTP(block []byte) (head, payload []byte, err error) {
	if !bytes.HasPrefix(block, []byte("HTTP/")) {
		return nil, nil, ErrNotHTTP
	}
	if i := bytes.Index(block, []byte("\r\n\r\n")); i >= 0 {
		return block[:i+4], block[i+4:], nil
	}
	if i := bytes.Index(block, []byte("\n\n")); i >= 0 {
		return block[:i+2], block[i+2:], nil
	}
	return nil, nil, fmt.Errorf("%w: no end of header", ErrNotHTTP)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// CountingReader counts the bytes read through it: N is how many R has
// given so far.
type CountingReader struct {
	R io.Reader
	N int64
}

func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}

// readBlock reads a record's block of length bytes. The buffer grows with
// what is read, so a Content-Length that promises more than the input
// holds costs no more memory than the input (a header of 40 TB is not an
// allocation of 40 TB).
func readBlock(r io.Reader, length int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(min(length, 1<<20))
	if _, err := io.CopyN(&buf, r, int64(length)); err != nil {
		return nil, fmt.Errorf("%w: block shorter than Content-Length %d", ErrFormat, length)
	}
	return buf.Bytes(), nil
}
