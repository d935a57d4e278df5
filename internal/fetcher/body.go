package fetcher

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"

	"github.com/focuscrawl/focuscrawl/internal/warc"
)

// bodyError is a body that arrived but cannot be decoded: not worth a
// retry.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// readBody reads resp's body into buf, decoding its Content-Encoding. Both
// the bytes on the wire and the decoded bytes are capped at max; a body
// cut at either cap is truncated (a gzip bomb ends here, not in an
// out-of-memory kill). wire is the number of bytes received.
//
// big, when not nil, is called once the decoded body passes bigBody
// bytes, before more is read; it may block (see Fetcher.acquireBig).
func readBody(resp *http.Response, max int64, buf *bytes.Buffer, big func() error) (wire int64, truncated bool, err error) {
	counted := &warc.CountingReader{R: io.LimitReader(resp.Body, max+1)}
	dec, closeDec, err := decoder(resp.Header.Get("Content-Encoding"), counted, max)
	if err != nil {
		return counted.N, false, err
	}
	defer closeDec()
	var src io.Reader = io.LimitReader(dec, max+1)
	if big != nil && max > bigBody {
		want := resp.ContentLength
		if resp.Header.Get("Content-Encoding") != "" {
			want = -1
		}
		src = &bigGate{r: src, big: big, buf: buf, want: want, max: max}
	}
	if n := resp.ContentLength; n > 0 && resp.Header.Get("Content-Encoding") == "" {
		// Size the buffer once instead of doubling it (up to the point a
		// big body must wait for its slot).
		buf.Grow(int(min(n, bigBody, max)) + bytes.MinRead)
	}
	_, err = buf.ReadFrom(src)
	wireCut := counted.N > max
	if wireCut {
		counted.N = max
	}
	if int64(buf.Len()) > max {
		buf.Truncate(int(max))
		return counted.N, true, nil
	}
	if err != nil {
		if wireCut {
			// The decoder saw its input end at the cap.
			return counted.N, true, nil
		}
		var be *bodyError
		if errors.As(err, &be) || isCodingError(err) {
			return counted.N, false, &bodyError{err}
		}
		return counted.N, false, err
	}
	return counted.N, wireCut, nil
}

// decoder wraps r in the decoders of a Content-Encoding list, applied in
// the reverse of the order they were listed.
func decoder(codings string, r io.Reader, max int64) (io.Reader, func(), error) {
	closers := []func(){}
	closeAll := func() {
		for _, c := range closers {
			c()
		}
	}
	list := strings.Split(codings, ",")
	for i := len(list) - 1; i >= 0; i-- {
		c := strings.ToLower(strings.TrimSpace(list[i]))
		switch c {
		case "", "identity", "none":
		case "gzip", "x-gzip":
			br := bufio.NewReader(r)
			if magic, _ := br.Peek(2); !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
				// Mislabelled plain body (common with misconfigured
				// servers): read it as it is.
				r = br
				continue
			}
			zr, err := gzip.NewReader(br)
			if err != nil {
				closeAll()
				return nil, nil, &bodyError{fmt.Errorf("gzip: %w", err)}
			}
			closers = append(closers, func() { zr.Close() })
			r = &codingReader{r: zr, name: "gzip"}
		case "deflate":
			br := bufio.NewReader(r)
			var zr io.ReadCloser
			if h, _ := br.Peek(2); len(h) == 2 && h[0]&0x0f == 8 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
				z, err := zlib.NewReader(br)
				if err != nil {
					closeAll()
					return nil, nil, &bodyError{fmt.Errorf("deflate: %w", err)}
				}
				zr = z
			} else {
				zr = flate.NewReader(br) // raw deflate, as some servers send
			}
			closers = append(closers, func() { zr.Close() })
			r = &codingReader{r: zr, name: "deflate"}
		case "br":
			r = &codingReader{r: brotli.NewReader(r), name: "br"}
		case "zstd":
			zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
				zstd.WithDecoderMaxMemory(uint64(max)+1<<20), zstd.WithDecoderMaxWindow(8<<20))
			if err != nil {
				closeAll()
				return nil, nil, &bodyError{fmt.Errorf("zstd: %w", err)}
			}
			closers = append(closers, zr.Close)
			r = &codingReader{r: zr, name: "zstd"}
		default:
			closeAll()
			return nil, nil, &bodyError{fmt.Errorf("unsupported Content-Encoding %q", c)}
		}
	}
	return r, closeAll, nil
}

// codingReader marks errors of a decoder (corrupt data) as body errors,
// apart from errors of the connection under it.
type codingReader struct {
	r    io.Reader
	name string
}

func (c *codingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF && isCodingError(err) {
		err = &bodyError{fmt.Errorf("%s: %w", c.name, err)}
	}
	return n, err
}

// isCodingError tells a decoder's complaint about its data from a network
// error passed through it.
func isCodingError(err error) bool {
	var be *bodyError
	if errors.As(err, &be) {
		return true
	}
	var ce flate.CorruptInputError
	return errors.As(err, &ce) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) ||
		errors.Is(err, zlib.ErrChecksum) || errors.Is(err, zlib.ErrHeader) || errors.Is(err, zstd.ErrMagicMismatch) ||
		strings.HasPrefix(err.Error(), "brotli:")
}

// bigBody is the size from which a body counts as big: only a few big
// bodies are read at once, so -c 64 with --max-bytes 10MiB cannot add up
// to gigabytes.
const bigBody = 512 << 10

// bigGate calls big once, when bigBody bytes have passed through it, and
// then sizes buf for the whole body when its length is known.
type bigGate struct {
	r    io.Reader
	n    int64
	big  func() error
	done bool
	buf  *bytes.Buffer
	want int64 // Content-Length of an unencoded body, or -1
	max  int64
}

func (g *bigGate) Read(p []byte) (int, error) {
	if !g.done && g.n >= bigBody {
		g.done = true
		if err := g.big(); err != nil {
			return 0, err
		}
		if g.want > g.n {
			g.buf.Grow(int(min(g.want, g.max)-g.n) + bytes.MinRead)
		}
	}
	if !g.done && int64(len(p)) > bigBody-g.n {
		p = p[:bigBody-g.n] // stop at the threshold to ask for a slot
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}

// bufPool recycles body buffers: a buffer is reused only while small, so
// one huge page does not pin its memory.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer { return bufPool.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 1<<20 {
		return
	}
	b.Reset()
	bufPool.Put(b)
}
