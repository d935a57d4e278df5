package jsonl

import (
	"errors"
	"strings"
	"testing"
)

func TestDecodeURL(t *testing.T) {
	tests := []struct {
		name, in string
		wantURL  string
		wantErr  string // "" none; "comment" for ErrComment
	}{
		{"plain", "http://a.example/", "http://a.example/", ""},
		{"spaces around", "  http://a.example/ \t", "http://a.example/", ""},
		{"BOM", "\ufeffhttp://a.example/", "http://a.example/", ""},
		{"record", `{"url":"http://a.example/","depth":2}`, "http://a.example/", ""},
		{"record with BOM", "\ufeff" + `{"url":"u"}`, "u", ""},
		{"comment", "# seeds", "", "comment"},
		{"inner space", "http://a.example/a b", "", "white space at byte 18"},
		{"invalid UTF-8", "http://a.example/\xff", "", "UTF-8"},
		{"missing url", `{"depth":1}`, "", `missing "url" field`},
		{"broken JSON", `{"url":`, "", "invalid JSON"},
		{"wrong type", `{"url":"u","depth":"two"}`, "", `field "depth": string where int was expected`},
		{"wrong type nested", `{"url":"u","meta":{},"priority":"high"}`, "", `field "priority"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := DecodeURL([]byte(tt.in))
			switch {
			case tt.wantErr == "":
				if err != nil || u.URL != tt.wantURL {
					t.Fatalf("DecodeURL(%q) = %q, %v; want %q", tt.in, u.URL, err, tt.wantURL)
				}
			case tt.wantErr == "comment":
				if !errors.Is(err, ErrComment) {
					t.Fatalf("DecodeURL(%q) err %v, want ErrComment", tt.in, err)
				}
			default:
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("DecodeURL(%q) err %v, want %q", tt.in, err, tt.wantErr)
				}
			}
		})
	}
}

func TestDecodeKeepsMetaAndIgnoresUnknown(t *testing.T) {
	u, err := DecodeURL([]byte(`{"url":"u","future_field":[1,2],"meta":{"b": 1, "a": [true]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(u.Meta) != `{"b": 1, "a": [true]}` {
		t.Fatalf("meta %s: not byte for byte", u.Meta)
	}
}

func TestIsJSON(t *testing.T) {
	for in, want := range map[string]bool{`{"a":1}`: true, " \t{": true, "\ufeff{": true, "\r{}": true, "\r\n \ufeff{": true, "http://x": false, "[1]": false, "": false} {
		if got := IsJSON([]byte(in)); got != want {
			t.Errorf("IsJSON(%q) = %v", in, got)
		}
	}
}
