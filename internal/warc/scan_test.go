package warc

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// plainRecord is one uncompressed record with LF line ends, as some
// WARC/1.0 writers leave them.
func plainRecord(uri, block string) string {
	return "WARC/1.0\nWARC-Type: resource\nWARC-Target-URI: <" + uri + ">\nWARC-Date: 2020-01-01T00:00:00Z\n" +
		"WARC-Record-ID: <urn:uuid:x>\nContent-Length: " + strconv.Itoa(len(block)) + "\n\n" + block + "\r\n\r\n"
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// TestScannerLayouts reads the same three records plain, gzipped per
// record and gzipped as a whole, and reads each again at its position.
func TestScannerLayouts(t *testing.T) {
	recs := []string{plainRecord("http://a.test/1", "one"), plainRecord("http://a.test/2", ""), plainRecord("http://a.test/3", "three\n")}
	var plain, perRecord, whole bytes.Buffer
	for _, r := range recs {
		plain.WriteString(r)
		perRecord.Write(gz(t, r))
	}
	whole.Write(gz(t, plain.String()))
	for name, file := range map[string][]byte{"plain": plain.Bytes(), "per record": perRecord.Bytes(), "whole file": whole.Bytes()} {
		t.Run(name, func(t *testing.T) {
			sc := NewScanner(bytes.NewReader(file))
			var positions []Position
			for i := 0; ; i++ {
				rec, pos, err := sc.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				want := []string{"one", "", "three\n"}[i]
				if rec.TargetURI() != "http://a.test/"+strconv.Itoa(i+1) || string(rec.Block) != want {
					t.Errorf("record %d: %s %q", i, rec.TargetURI(), rec.Block)
				}
				positions = append(positions, pos)
			}
			if len(positions) != 3 {
				t.Fatalf("%d records, want 3", len(positions))
			}
			if name == "whole file" && (positions[2].Offset != 0 || positions[2].Index != 2) {
				t.Errorf("whole-file position %+v, want offset 0 index 2", positions[2])
			}
			if name != "whole file" && (positions[1].Offset == 0 || positions[1].Index != 0) {
				t.Errorf("position %+v, want an offset of its own", positions[1])
			}
			for i := len(positions) - 1; i >= 0; i-- {
				rec, err := ReadRecordAt(bytes.NewReader(file), positions[i])
				if err != nil {
					t.Fatal(err)
				}
				if rec.TargetURI() != "http://a.test/"+strconv.Itoa(i+1) {
					t.Errorf("ReadRecordAt(%+v) = %s", positions[i], rec.TargetURI())
				}
			}
		})
	}
	if _, _, err := NewScanner(bytes.NewReader([]byte("HTTP/1.1 200 OK\r\n\r\n"))).Next(); err == nil {
		t.Error("a non-WARC input was read as a record")
	}
}
