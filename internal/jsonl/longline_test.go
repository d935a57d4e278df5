package jsonl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

func TestURLOfPrefix(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	for _, tc := range []struct {
		line, want string
	}{
		{`{"url":"http://a.example/","html":"` + big[:1000], "http://a.example/"},
		{`{"status":200,"meta":{"url":"nested"},"links":[{"url":"l"}],"url":"http://b.example/p","html":"<p>cut`, "http://b.example/p"},
		{"\ufeff {\"url\":\"http://c.example/\\u6797\"", "http://c.example/林"},
		{`{"html":"` + big + `","url":"http://late.example/"}`, ""}, // past the scan bound
		{`{"html":"cut before the url`, ""},
		{`{"url":5}`, ""},
		{`["url","http://a.example/"]`, ""},
		{`http://plain.example/`, ""},
	} {
		got, ok := URLOfPrefix([]byte(tc.line))
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("URLOfPrefix(%.60q) = %q, %v; want %q", tc.line, got, ok, tc.want)
		}
	}
}

func TestRejectEchoIsCut(t *testing.T) {
	var log bytes.Buffer
	r, _ := OpenRejects("", &log)
	long := strings.Repeat("林", 1<<20) // 3 MiB
	r.Reject(Line{Name: "in", Num: 7, Bytes: []byte(long)}, fmt.Errorf("url %q: bad", long))
	out := log.String()
	if len(out) > MaxEcho+100 || !strings.HasPrefix(out, `in:7: url "林`) || !strings.Contains(out, "bytes cut]") {
		t.Errorf("echo of %d bytes: %.400q", len(out), out)
	}
	if !strings.HasSuffix(out, `林": bad`+"\n") || strings.ContainsRune(out, '\uFFFD') {
		t.Errorf("echo does not end with the reason, or not cut at a character boundary: %q", out[len(out)-40:])
	}
}

func TestJSONURLInvalidUTF8(t *testing.T) {
	for _, line := range []string{
		"{\"url\":\"http://a.example/\xff\xfe\"}",
		"{\"depth\":1,\"url\":\"http://a.example/\xc3\"}",
	} {
		if _, err := DecodeURL([]byte(line)); err == nil || err.Error() != "URL is not valid UTF-8" {
			t.Errorf("DecodeURL(%q) = %v, want the invalid UTF-8 error", line, err)
		}
	}
	// Invalid bytes elsewhere in the record do not make the URL invalid.
	if u, err := DecodeURL([]byte("{\"url\":\"http://a.example/\",\"meta\":{\"t\":\"\xff\"}}")); err != nil || u.URL != "http://a.example/" {
		t.Errorf("bad meta: %v %q", err, u.URL)
	}
}

// FuzzURLOfPrefix: any cut of a record whose url comes first gives the
// url back once the cut passes it, and no input makes it panic.
func FuzzURLOfPrefix(f *testing.F) {
	f.Add("http://a.example/", "<p>x</p>", 40)
	f.Add("http://林.example/?q=\"x\"", strings.Repeat("\\", 10), 5)
	f.Add("", "", 0)
	f.Fuzz(func(t *testing.T, u, rest string, cut int) {
		line, err := json.Marshal(struct {
			URL  string `json:"url"`
			HTML string `json:"html"`
		}{u, rest})
		if err != nil {
			t.Skip()
		}
		urlEnd := len(`{"url":`)
		if q, err := json.Marshal(u); err == nil {
			urlEnd += len(q)
		}
		cut = min(max(cut, 0), len(line))
		got, ok := URLOfPrefix(line[:cut])
		want, _ := json.Marshal(u) // u as JSON decodes it: invalid UTF-8 replaced
		var wantS string
		json.Unmarshal(want, &wantS)
		if cut > urlEnd && wantS != "" && (!ok || got != wantS) {
			t.Errorf("cut %d of %q: %q, %v; want %q", cut, line, got, ok, wantS)
		}
		if ok && got != wantS {
			t.Errorf("cut %d of %q: %q, want %q", cut, line, got, wantS)
		}
	})
}

// TestReadURLsLongLine: a url record over the cap is rejected and still
// answered, as a record with an error, when its start names the url.
func TestReadURLsLongLine(t *testing.T) {
	in := `{"url":"http://long.example/","meta":{"note":"` + strings.Repeat("x", 300) + `"}}` + "\n" +
		strings.Repeat("y", 300) + "\n" + "http://short.example/\n"
	r := NewReader(nil, strings.NewReader(in))
	r.MaxLine = 100
	var log bytes.Buffer
	rej, _ := OpenRejects("", &log)
	var got []record.URL
	if err := ReadURLs(context.Background(), r, rej, func(u record.URL) error { got = append(got, u); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].URL != "http://long.example/" || !strings.HasPrefix(got[0].Error, "input: line too long") ||
		got[1].URL != "http://short.example/" || got[1].Error != "" {
		t.Errorf("got %+v", got)
	}
	if rej.Count() != 2 {
		t.Errorf("%d lines rejected, want 2: %s", rej.Count(), log.String())
	}
}
