package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
)

// checkLean holds decodeLean to encoding/json on one line: when the fast
// path takes the line, json.Unmarshal must take it too and decode the same
// leanDoc. It returns whether the fast path took it.
func checkLean(t *testing.T, line []byte) bool {
	t.Helper()
	var fast, want leanDoc
	ok := decodeLean(line, &fast, true)
	err := jsonl.Decode(line, &want)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("fast path took a line encoding/json refuses (%v): %q", err, line)
	}
	ms, err := members(line, nil)
	if err != nil || !slices.Equal(fast.members, ms) {
		t.Fatalf("members of %.300q: %v %v, want %v", line, fast.members, err, ms)
	}
	fast.members = nil
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("decoded differently: %.300q\nfast %.300v\njson %.300v", line, fmt.Sprintf("%+v", fast), fmt.Sprintf("%+v", want))
	}
	return true
}

// leanCases are lines at the edges: each says whether the fast path
// should take it (false: encoding/json decodes it or rejects it).
var leanCases = []struct {
	line string
	fast bool
}{
	{`{"url":"http://a/","title":"T","content":"a\nb \"q\" \\ \/ \u00e9 \ud83d\ude00 \ud83d x \udc00","tokens":["a","b",null],"links":[{"url":"u","anchor":"A","block":3,"internal":true,"nofollow":false,"tag":"a","tokens":["x"],"other":{"k":[1,2.5e-3,-0,true,false,null]}},null],"blocks":[{"id":1,"kind":"main","text":"t","link_density":0.1},null],"depth":2,"priority":0.25,"parent":"p","anchor":"pa","inherited":1e-2,"site":"s","error":"","meta":{"x":"y","中":"文"}}`, true},
	{` ` + "\ufeff" + `	{"url":"u"}  ` + "\r\n", true},
	{`{}`, true},
	{`{"url":"u","tokens":[],"links":[],"blocks":[]}`, true},
	{`{"url":"u","tokens":null,"links":null,"blocks":null,"title":null,"depth":null,"priority":null,"html":null}`, true},
	{`{"url":"u","html":"<p>x</p>"}`, true},
	{`{"url":"u","html":{"a":1}}`, true},
	{"{\"url\":\"bad \xff utf8 \xe2\x82\"}", true},
	{`{"url":"u","links":[{"url":"a","context":"c \"q\" d"},{"url":"b","context":"c \"q\" d"},{"url":"c","context":"c \"q\" d\" e"},{"url":"d","context":""},{"url":"e","context":""},{"url":"f","context":"c \"q\" d"},{"url":"g","context":"c \"q\" d\\"}]}`, true},
	{`{"url":"u","links":[{"url":"v\u00e9","anchor":"x\"y","tag":"area"},{"url":null,"anchor":"z","tag":"img"},{"tag":"a"},{"url":"w","tag":null,"anchor":""},{"url":"bad ` + "\xff" + `","anchor":"中","tag":"a\u0062"}]}`, true},
	{`{"url":"u","links":[{"url":"v","tag":"a` + "\x01" + `"}]}`, false},
	{`{"url":"u","links":[{"context":"ab"},{"context":"ab` + "\x01" + `"}]}`, false},
	{`{"url":"u","links":[{"context":"ab"},{"context":"ab"`, false},
	{`{"url":"u","links":[{"url":"v","block":1.5}]}`, false},
	{`{"url":"u","depth":1e2}`, false},
	{`{"url":"u","depth":99999999999999999999}`, false},
	{`{"url":"u","priority":1e999}`, false},
	{`{"url":"u","depth":"2"}`, false},
	{`{"url":5}`, false},
	{`{"url":"u","tokens":"a"}`, false},
	{`{"url":"u","tokens":[1]}`, false},
	{`{"url":"u","links":[1]}`, false},
	{`{"url":"u","links":[{"internal":"yes"}]}`, false},
	{`{"URL":"u"}`, false},
	{`{"url":"u","Links":[]}`, false},
	{`{"url":"u","links":[{"URL":"v"}]}`, false},
	{`{"\u0075rl":"u"}`, false},
	{`{"url":"u","url":"v"}`, false},
	{`{"url":"u","links":[{"url":"v","url":"w"}]}`, false},
	{`{"url":"u",}`, false},
	{`{"url":"u"} x`, false},
	{`{"url":"u"`, false},
	{`{"url":"u","x":01}`, false},
	{`{"url":"u","x":1.}`, false},
	{`{"url":"u","x":-}`, false},
	{`{"url":"u","x":tru}`, false},
	{`{"url":"u","x":"\x"}`, false},
	{`{"url":"u","x":"\u12"}`, false},
	{"{\"url\":\"a\tb\"}", false},
	{`{"url":"u","x":[1,]}`, false},
	{`{"url":"u","x":{"a"}}`, false},
	{`["url"]`, false},
	{"\n{\"url\":\"u\"}", false},
	{``, false},
}

func TestDecodeLeanCases(t *testing.T) {
	for _, tc := range leanCases {
		if got := checkLean(t, []byte(tc.line)); got != tc.fast {
			t.Errorf("%q: fast path %v, want %v", tc.line, got, tc.fast)
		}
	}
}

// TestDecodeLeanDocs: segment's docs of simweb pages and the test docs all
// take the fast path and decode as encoding/json decodes them.
func TestDecodeLeanDocs(t *testing.T) {
	lines := simwebDocs(t, 60)
	f, err := os.Open("testdata/docs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	fast := 0
	for _, l := range lines {
		if checkLean(t, l) {
			fast++
		}
	}
	// One line of testdata/docs.jsonl is not JSON.
	if fast != len(lines)-1 {
		t.Errorf("fast path took %d of %d lines", fast, len(lines))
	}
}

func FuzzDecodeLean(f *testing.F) {
	for _, tc := range leanCases {
		f.Add([]byte(tc.line))
	}
	for _, l := range simwebDocs(f, 3) {
		f.Add(l[:min(len(l), 3000)])
		var short leanDoc
		json.Unmarshal(l, &short)
		short.Content, short.HTML = "", nil
		b, _ := json.Marshal(short)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkLean(t, line) })
}

// TestDecodeLeanStringPositions: a special byte at every offset of strings
// long enough for the eight-bytes-at-a-time scan, in a decoded field, a
// token and a skipped field: the fast path agrees with encoding/json.
func TestDecodeLeanStringPositions(t *testing.T) {
	specials := []string{`\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, "\x01", "\x1f", "é", "中", "\xff", "\u2028", `"`, `\`}
	for n := 0; n < 20; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, sp := range specials {
				s := strings.Repeat("a", pos) + sp + strings.Repeat("b", n-pos)
				for _, line := range []string{
					`{"url":"` + s + `"}`,
					`{"url":"u","tokens":["x","` + s + `","y"]}`,
					`{"url":"u","skipped":"` + s + `","title":"t"}`,
				} {
					checkLean(t, []byte(line))
				}
			}
		}
	}
}
