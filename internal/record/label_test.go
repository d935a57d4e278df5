package record

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestDocLabel: the label example of docs/records.md decodes strictly into
// Label, survives a round trip, and every field of Label is in the table.
// A label is not a stage record (Sniff calls it a url), so the tests of
// the kinds do not cover it.
func TestDocLabel(t *testing.T) {
	b, err := os.ReadFile(recordsDoc)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n## label\n\\s*```json\n(.*?)\n```(.*?)\n## ").FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("docs/records.md: no \"## label\" section with a ```json example")
	}
	dec := json.NewDecoder(strings.NewReader(m[1]))
	dec.DisallowUnknownFields()
	var l Label
	if err := dec.Decode(&l); err != nil {
		t.Fatalf("the label example does not decode strictly: %v", err)
	}
	if l.URL == "" || !l.Relevant || l.LabelledAt.IsZero() {
		t.Fatalf("label example decoded as %+v", l)
	}
	again, _ := json.Marshal(l)
	var x, y any
	json.Unmarshal([]byte(m[1]), &x)
	json.Unmarshal(again, &y)
	if !reflect.DeepEqual(x, y) {
		t.Fatalf("the label example changes in a round trip:\n%s\n%s", m[1], again)
	}
	for _, f := range jsonFields(reflect.TypeOf(l), "") {
		if !strings.Contains(m[2], "`"+f+"`") {
			t.Errorf("docs/records.md, ## label: field %s is not documented", f)
		}
	}
}
