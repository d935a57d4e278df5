package fetcher

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestReadBodyBigGate(t *testing.T) {
	resp := func(n int) *http.Response {
		return &http.Response{Header: http.Header{}, Body: io.NopCloser(strings.NewReader(strings.Repeat("x", n)))}
	}
	tests := []struct {
		name      string
		size      int
		max       int64
		gateErr   error
		wantCalls int
		wantErr   bool
		wantLen   int
	}{
		{"small body never asks", 100 << 10, 10 << 20, nil, 0, false, 100 << 10},
		{"big body asks once", 3 << 20, 10 << 20, nil, 1, false, 3 << 20},
		{"cap under the threshold never asks", 3 << 20, 512 << 10, nil, 0, false, 512 << 10},
		{"refused slot ends the read", 3 << 20, 10 << 20, errors.New("canceled"), 1, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			var buf bytes.Buffer
			_, _, err := readBody(resp(tt.size), tt.max, &buf, func() error { calls++; return tt.gateErr })
			if calls != tt.wantCalls || (err != nil) != tt.wantErr {
				t.Errorf("%d calls, error %v", calls, err)
			}
			if !tt.wantErr && buf.Len() != tt.wantLen {
				t.Errorf("read %d bytes, want %d", buf.Len(), tt.wantLen)
			}
		})
	}
	if n := maxBigBodies(Config{Concurrency: 64}); n != 8 {
		t.Errorf("maxBigBodies(-c 64) = %d", n)
	}
}
