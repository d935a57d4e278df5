package fetcher

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/focuscrawl/focuscrawl/internal/record"
)

// fillAll sets every field of v (recursively through embedded structs) to
// a non-zero value, so a field AppendPage forgets shows up as a diff.
func fillAll(v reflect.Value, s string) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(s + v.Type().Field(i).Name)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(7 + i))
		case reflect.Float64:
			f.SetFloat(0.25 + float64(i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.String {
				f.Set(reflect.ValueOf([]string{s + "a", "b\"c"}))
			} else { // Meta
				f.SetBytes([]byte(`{"k":[1,2,{"x":"\u2028 \"q\""}]}`))
			}
		case reflect.Struct:
			if f.Type() == reflect.TypeOf(time.Time{}) {
				f.Set(reflect.ValueOf(time.Date(2026, 11, 22, 8, 0, 0, 123456789, time.UTC)))
			} else {
				fillAll(f, s)
			}
		default:
			panic("fillAll: unhandled kind " + f.Kind().String())
		}
	}
}

func stdEncode(t *testing.T, p *record.Page) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func TestAppendPageMatchesEncodingJSON(t *testing.T) {
	full := record.Page{}
	fillAll(reflect.ValueOf(&full).Elem(), "森林 <a href=\"x\">\\ \n\t\x01 \u2029 ")
	tests := map[string]record.Page{
		"every field":                full,
		"zero":                       {},
		"invalid utf-8 and controls": {URL: "http://x/\xff", HTML: "a\x00b\x1fc\u2028d\xe2\x80", Error: "\"quoted\""},
		"floats":                     {Lineage: record.Lineage{Priority: 1e-7, Inherited: 123456789.125}},
		"big floats":                 {Lineage: record.Lineage{Priority: 1e21, Inherited: -0.5}},
		"pretty meta":                {URL: "u", Meta: record.Meta("{\n  \"a\": 1\n}")},
		"redirects":                  {Redirects: []string{"http://a/", "http://b/"}, Truncated: true, Bytes: 12},
	}
	for name, p := range tests {
		t.Run(name, func(t *testing.T) {
			got := AppendPage(nil, &p)
			want := stdEncode(t, &p)
			if bytes.Contains(got, []byte("\n")) {
				t.Fatalf("line break in output: %s", got)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("invalid JSON %s: %v", got, err)
			}
			json.Unmarshal(want, &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("differs from encoding/json:\n got %s\nwant %s", got, want)
			}
			if name != "pretty meta" && !bytes.Equal(got, want) {
				t.Errorf("bytes differ:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func BenchmarkAppendPage(b *testing.B) {
	p := &record.Page{URL: "http://www.example.cn/a", Status: 200, HTML: strings.Repeat(zhPage, 60)}
	b.SetBytes(int64(len(p.HTML)))
	var buf []byte
	for b.Loop() {
		buf = AppendPage(buf[:0], p)
	}
}

func BenchmarkEncodingJSONPage(b *testing.B) {
	p := &record.Page{URL: "http://www.example.cn/a", Status: 200, HTML: strings.Repeat(zhPage, 60)}
	b.SetBytes(int64(len(p.HTML)))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for b.Loop() {
		buf.Reset()
		enc.Encode(p)
	}
}
