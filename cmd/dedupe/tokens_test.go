package main

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestTokenList: tokenList decodes what encoding/json decodes into
// []string, and refuses what it refuses.
func TestTokenList(t *testing.T) {
	tests := []string{
		`[]`, `null`, `["a"]`, `["森林","抚育", "间伐"]`, ` [ "x" , "y" ] `,
		`["quote\"d","back\\slash","\u00e9t\u00e9","tab\t"]`, `[""]`,
		`["a",1]`, `[1]`, `{"a":1}`, `"a"`,
	}
	for _, in := range tests {
		var want []string
		werr := json.Unmarshal([]byte(in), &want)
		var got struct {
			T tokenList `json:"t"`
		}
		gerr := json.Unmarshal([]byte(`{"t":`+in+`}`), &got)
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%s: error %v, encoding/json's %v", in, gerr, werr)
			continue
		}
		if werr == nil && (!slices.Equal(got.T, want) || (want == nil) != (got.T == nil)) {
			t.Errorf("%s: %q, want %q", in, got.T, want)
		}
	}
}
