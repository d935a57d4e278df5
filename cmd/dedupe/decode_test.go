package main

import (
	"reflect"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

var decodeCases = []string{
	`{"url":"http://a/1","title":"森林","content":"第一段\n\n第二段 \"引号\" \\ \/ \t \u00e9 \ud83c\udf32","score":0.75,"relevant":true,"meta":{"job":7,"x":[1,2,{"y":null}]},"tokens":["森林","抚育"],"duplicates":["http://b/1"]}`,
	`{"url":"u","relevant":false,"score":-1.5e-3,"final_url":"f","canonical":"c","published":"2024-01-02","source":"s","author":"a","error":""}`,
	`{"url":"u","relevant":null,"score":null,"title":null,"duplicates":null,"tokens":null}`,
	`{"url":"u","duplicates":[],"tokens":[],"blocks":[{"id":1,"text":"x","link_density":0.02}],"links":[{"url":"v","internal":true,"nofollow":false}],"depth":3}`,
	` { "url" : "u" , "content" : "x" } `,
	`{"url":"u","score":1,"score":2}`,
	`{}`,
	`{"URL":"u"}`,
	`{"url":"u","Content":"x"}`,
	`{"url":"u","meta":null}`,
	`{"url":"u","content":"\ud800"}`,
	`{"url":"u","content":"bad \x"}`,
	`{"url":"u","score":"1"}`,
	`{"url":"u","relevant":"yes"}`,
	`{"url":"u","score":01}`,
	`{"url":"u","score":1.}`,
	`{"url":"u","x":tru}`,
	`{"url":"u",}`,
	`{"url":"u"} x`,
	`{"url":"u"`,
	`{"url":"u","tokens":["a",1]}`,
	`{"url":"u","tokens":"a"}`,
	`{"url":"u","duplicates":["a",null]}`,
	`{"url":"u","x":{"a":1,}}`,
	`{"url":"u","x":[1 2]}`,
	"{\"url\":\"u\",\"content\":\"raw\ttab\"}",
	"{\"url\":\"u\",\"content\":\"bad utf8 \xff\"}",
	"\ufeff{\"url\":\"u\"}",
	`["not an object"]`,
	``,
}

// checkDecode: where decodeInput accepts a line, encoding/json (through
// jsonl.Decode) accepts it too and decodes the same input.
func checkDecode(t *testing.T, line string) {
	var fast, slow input
	ok := decodeInput([]byte(line), &fast)
	err := jsonl.Decode([]byte(line), &slow)
	if !ok {
		return // the slow path decides
	}
	if err != nil {
		t.Errorf("%s: fast path accepted what jsonl.Decode refuses: %v", line, err)
		return
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("%s:\nfast %+v\nslow %+v", line, fast, slow)
	}
}

func TestDecodeInput(t *testing.T) {
	accepted := 0
	for _, line := range decodeCases {
		checkDecode(t, line)
		var in input
		if decodeInput([]byte(line), &in) {
			accepted++
		}
	}
	// The fast path must take the ordinary lines, not leave all to the
	// slow one.
	if accepted < 7 {
		t.Errorf("fast path took %d of the lines, want the 7 ordinary ones at least", accepted)
	}
}

func FuzzDecodeInput(f *testing.F) {
	for _, c := range decodeCases {
		f.Add(c)
	}
	f.Fuzz(checkDecode)
}
