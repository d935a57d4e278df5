package fetcher

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/warc"
)

func TestWARCOutput(t *testing.T) {
	gz := compress(t, "gzip", []byte(zhPage))
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusMovedPermanently) })
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz)
	})
	mux.HandleFunc("/big", htmlHandler(strings.Repeat("x", 5000)))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	path := filepath.Join(t.TempDir(), "out.warc.gz")
	w, err := warc.Create(path, "focuscrawl test")
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.IgnoreRobots = true
	cfg.MaxBytes = 4096
	cfg.WARC = w
	f := newFetcher(t, srv, cfg)
	p := f.Fetch(context.Background(), record.URL{URL: srv.URL + "/old"})
	if p.Error != "" || p.HTML != zhPage {
		t.Fatalf("page: %q %.40q", p.Error, p.HTML)
	}
	if p := f.Fetch(context.Background(), record.URL{URL: srv.URL + "/big"}); !p.Truncated {
		t.Fatal("big page not truncated")
	}
	f.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r := warc.NewReader(file)
	var recs []*warc.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		recs = append(recs, rec)
	}
	var types []string
	for _, rec := range recs {
		types = append(types, rec.Type)
	}
	if got := strings.Join(types, " "); got != "warcinfo request response request response request response" {
		t.Fatalf("record types: %s", got)
	}
	ids := map[string]*warc.Record{}
	for _, rec := range recs {
		ids[rec.Get("WARC-Record-ID")] = rec
		if rec.Get("WARC-Block-Digest") != "" && rec.Get("WARC-Block-Digest") != warc.Digest(rec.Block) {
			t.Errorf("%s: block digest mismatch", rec.Type)
		}
	}
	for i := 1; i < len(recs); i += 2 {
		req, resp := recs[i], recs[i+1]
		if ids[resp.Get("WARC-Concurrent-To")] != req || ids[req.Get("WARC-Concurrent-To")] != resp {
			t.Errorf("pair %d not linked by WARC-Concurrent-To", i)
		}
		if req.Get("WARC-Target-URI") != resp.Get("WARC-Target-URI") {
			t.Errorf("pair %d: target URIs differ", i)
		}
		hr, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(req.Block)))
		if err != nil || hr.Header.Get("User-Agent") != DefaultUserAgent {
			t.Errorf("request block: %v, %q", err, req.Block)
		}
	}
	// The redirect, then the page with its body as served (gzip).
	if recs[1].Get("WARC-Target-URI") != srv.URL+"/old" || recs[3].Get("WARC-Target-URI") != srv.URL+"/new" {
		t.Errorf("targets %q, %q", recs[1].Get("WARC-Target-URI"), recs[3].Get("WARC-Target-URI"))
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(recs[4].Block)), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, gz) {
		t.Errorf("response record: %d %q, %d body bytes", resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body))
	}
	if recs[4].Get("WARC-Payload-Digest") != warc.Digest(gz) {
		t.Error("payload digest mismatch")
	}
	if recs[6].Get("WARC-Truncated") != "length" {
		t.Errorf("truncated body: WARC-Truncated %q", recs[6].Get("WARC-Truncated"))
	}
}
