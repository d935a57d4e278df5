package jsonl

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	gojson "github.com/goccy/go-json"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

func TestMembers(t *testing.T) {
	line := []byte("\ufeff { \"url\" : \"https://a.example/\", \"l\\u0069nks\":[{\"url\":\"x\",\"t\":\"}]\\\"\"}] ,\"n\":-1.5e3,\"o\":{\"a\":[1,{}]},\"t\":true,\"z\":null } ")
	ms, err := Members(line, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names, values []string
	for _, m := range ms {
		names = append(names, m.Name(line))
		values = append(values, string(line[m.Value:m.End]))
		if !strings.HasPrefix(string(line[m.Start:]), `"`) {
			t.Errorf("member %q does not start at its key", m.Name(line))
		}
	}
	want := []string{"url", "links", "n", "o", "t", "z"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	wantValues := []string{`"https://a.example/"`, `[{"url":"x","t":"}]\""}]`, "-1.5e3", `{"a":[1,{}]}`, "true", "null"}
	if !reflect.DeepEqual(values, wantValues) {
		t.Errorf("values %q, want %q", values, wantValues)
	}
	if !ms[1].Is(line, "links") || ms[0].Is(line, "links") {
		t.Error("Is does not match keys by their unescaped names")
	}
	for _, bad := range []string{``, `[]`, `{"a"}`, `{"a":}`, `{"a":"b}`, `{"a":[1}`, `{1:2}`} {
		if _, err := Members([]byte(bad), nil); err == nil {
			t.Errorf("Members(%q) accepted a broken object", bad)
		}
	}
	if ms, err := Members([]byte(` {} `), nil); err != nil || len(ms) != 0 {
		t.Errorf("empty object: %v, %v", ms, err)
	}
}

// fuzzDoc has the kinds of fields the stages decode: strings, numbers,
// booleans, lists, nested records, raw values and a map.
type fuzzDoc struct {
	record.Doc
	Raw    json.RawMessage    `json:"raw"`
	Scores map[string]float64 `json:"scores"`
	N      int64              `json:"n"`
	U      uint8              `json:"u"`
	Ptr    *record.Link       `json:"ptr"`
}

// FuzzDecode checks the one decoder of the stages: what goccy/go-json
// accepts, encoding/json accepts too, with the same value; Decode agrees
// with encoding/json on every line; and Members splits every object
// encoding/json accepts into members that make the same object again.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"url":"https://a.example/","title":"t","tokens":["a","b"],"links":[{"url":"u","text":"x"}],"depth":2}`,
		`{"url":"\ud83d\ude00\u00e9","content":"\xff\xfe","n":12,"u":300}`,
		`{"raw":{"a":[1,2,{"b":null}]},"scores":{"x":1.5e-3},"ptr":{"url":"p"}}`,
		`{"url":"a","url":"b","URL":"c"}`,
		`{"n":1.0,"blocks":[{"id":1,"kind":"content"}],"relevant":true}`,
		` {"a":"\"}"} `, `{"tokens":null}`, `{}`, `[1]`, `{"a":1}x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var ref fuzzDoc
		refErr := json.Unmarshal(b, &ref)
		var fast fuzzDoc
		if gojson.Unmarshal(b, &fast) == nil {
			if refErr != nil {
				t.Fatalf("goccy accepts what encoding/json refuses (%v): %q", refErr, b)
			}
			if !reflect.DeepEqual(fast, ref) {
				t.Fatalf("goccy and encoding/json differ on %q:\n%+v\n%+v", b, fast, ref)
			}
		}
		var got fuzzDoc
		err := Decode(b, &got)
		if refErr == nil && IsJSON(b) && bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("{")) {
			if err != nil {
				t.Fatalf("Decode refuses what encoding/json accepts: %v: %q", err, b)
			}
			if !reflect.DeepEqual(got, ref) {
				t.Fatalf("Decode and encoding/json differ on %q", b)
			}
		} else if err == nil && refErr != nil {
			t.Fatalf("Decode accepts what encoding/json refuses: %q", b)
		}

		var obj map[string]any
		if json.Unmarshal(b, &obj) != nil || obj == nil {
			return
		}
		ms, err := Members(b, nil)
		if err != nil {
			t.Fatalf("Members refuses an object: %v: %q", err, b)
		}
		again := []byte{'{'}
		for i, m := range ms {
			if i > 0 {
				again = append(again, ',')
			}
			again = append(again, b[m.Start:m.End]...)
			var v any
			if err := json.Unmarshal(b[m.Value:m.End], &v); err != nil {
				t.Fatalf("member %q's value %q is not a value: %v", m.Name(b), b[m.Value:m.End], err)
			}
		}
		again = append(again, '}')
		var back map[string]any
		if err := json.Unmarshal(again, &back); err != nil || !reflect.DeepEqual(back, obj) {
			t.Fatalf("members of %q make %q (%v)", b, again, err)
		}
	})
}
