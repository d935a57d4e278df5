package record

import (
	"encoding/json"
	"testing"
)

func TestSniff(t *testing.T) {
	tests := []struct {
		line string
		want Kind
		ok   bool
	}{
		{`{"url":"u"}`, KindURL, true},
		{`{"url":"u","depth":2,"site":"s","meta":{}}`, KindURL, true},
		{`{"url":"u","status":0,"error":"timeout"}`, KindPage, true},
		{`{"url":"u","html":"<p>"}`, KindPage, true},
		{`{"url":"u","status":200,"tokens":["a"]}`, KindDoc, true},
		{`{"url":"u","content":"text"}`, KindDoc, true},
		{`{"url":"u","id":1,"kind":"links","path":"body"}`, KindBlock, true},
		{`{"url":"u","tokens":[],"score":0.5,"relevant":false}`, KindScoredDoc, true},
		{`{"site":"s","relevant":true,"pages_fetched":3}`, KindVerdict, true},
		{`{"url":"u","content":"c","score":0.7,"fingerprint":"ab"}`, KindKnowledge, true},
		{`not json`, "", false},
		{`{"url":`, "", false},
	}
	for _, tt := range tests {
		got, ok := Sniff([]byte(tt.line))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Sniff(%s) = %q, %v; want %q, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

// TestMetaPassesThroughByteForByte: meta is raw JSON, re-encoded exactly
// as it came (key order, spacing inside kept).
func TestMetaPassesThroughByteForByte(t *testing.T) {
	in := `{"url":"u","depth":0,"meta":{"z": 1, "a": [true, null], "nested": {"x": "林"}}}`
	var u URL
	if err := json.Unmarshal([]byte(in), &u); err != nil {
		t.Fatal(err)
	}
	p := Page{URL: u.URL, Lineage: u.Lineage, Meta: u.Meta}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back struct{ Meta json.RawMessage }
	json.Unmarshal(out, &back)
	// encoding/json compacts RawMessage on output; the content and key
	// order are what must survive.
	if string(back.Meta) != `{"z":1,"a":[true,null],"nested":{"x":"林"}}` {
		t.Fatalf("meta became %s", back.Meta)
	}
}
