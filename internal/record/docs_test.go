package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

const recordsDoc = "../../docs/records.md"

// kinds maps the heading of each kind in docs/records.md to its type.
var kinds = map[Kind]any{
	KindURL:       URL{},
	KindPage:      Page{},
	KindDoc:       Doc{},
	KindBlock:     BlockRecord{},
	KindScoredDoc: ScoredDoc{},
	KindVerdict:   Verdict{},
	KindKnowledge: Knowledge{},
}

// section is the text of one "## kind" section of the doc.
type section struct {
	kind    Kind
	text    string
	example string // the ```json block right after the heading
}

func readSections(t *testing.T) (map[Kind]section, string) {
	t.Helper()
	b, err := os.ReadFile(recordsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	heads := regexp.MustCompile(`(?m)^## (.+)$`).FindAllStringSubmatchIndex(doc, -1)
	out := map[Kind]section{}
	for i, h := range heads {
		end := len(doc)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		name := Kind(strings.TrimSpace(doc[h[2]:h[3]]))
		if _, ok := kinds[name]; !ok {
			continue
		}
		body := doc[h[1]:end]
		m := regexp.MustCompile("^\\s*```json\\n(.*)\\n```").FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("## %s: no ```json example right after the heading", name)
		}
		out[name] = section{kind: name, text: body, example: m[1]}
	}
	return out, doc
}

// TestDocExamplesDecode decodes every example strictly into its type,
// checks it is one line, that Sniff recognises its kind, and that it
// survives a round trip through the type.
func TestDocExamplesDecode(t *testing.T) {
	sections, _ := readSections(t)
	for kind, proto := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			s, ok := sections[kind]
			if !ok {
				t.Fatalf("docs/records.md has no section \"## %s\"", kind)
			}
			if strings.Contains(s.example, "\n") {
				t.Fatalf("example of %s spans several lines: records are one line each", kind)
			}
			v := reflect.New(reflect.TypeOf(proto))
			dec := json.NewDecoder(strings.NewReader(s.example))
			dec.DisallowUnknownFields()
			if err := dec.Decode(v.Interface()); err != nil {
				t.Fatalf("example of %s does not decode strictly into %T: %v", kind, proto, err)
			}
			if got, ok := Sniff([]byte(s.example)); !ok || got != kind {
				t.Fatalf("Sniff(example of %s) = %q, %v", kind, got, ok)
			}
			again, err := json.Marshal(v.Interface())
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			json.Unmarshal([]byte(s.example), &a)
			json.Unmarshal(again, &b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("example of %s changes in a round trip through %T:\n%s\n%s", kind, proto, s.example, again)
			}
		})
	}
}

// docParent names the section whose field tables a kind's section refers
// to ("the doc with every doc field above").
var docParent = map[Kind]Kind{KindScoredDoc: KindDoc, KindBlock: KindDoc}

// TestDocListsEveryField checks that every JSON field of every type is
// named, in backquotes, in its kind's section (or the section it refers
// to): `name`, or `links[].name` for the fields of nested records.
func TestDocListsEveryField(t *testing.T) {
	sections, _ := readSections(t)
	for kind, proto := range kinds {
		t.Run(string(kind), func(t *testing.T) {
			text := sections[kind].text
			if p, ok := docParent[kind]; ok {
				text += sections[p].text
			}
			for _, f := range jsonFields(reflect.TypeOf(proto), "") {
				name := f[strings.LastIndex(f, "]")+1:]
				name = strings.TrimPrefix(name, ".")
				if !strings.Contains(text, "`"+f+"`") && !strings.Contains(text, "`"+name+"`") {
					t.Errorf("docs/records.md, ## %s: field %s of %T is not documented", kind, f, proto)
				}
			}
		})
	}
}

// jsonFields lists the JSON names of t's fields as encoding/json sees
// them (embedded structs flattened, shallower names winning), with the
// fields of slices of structs as name[].field.
func jsonFields(t reflect.Type, prefix string) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(t reflect.Type, embedded bool)
	walk = func(t reflect.Type, embedded bool) {
		var nested []reflect.StructField
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			if f.Anonymous && name == "" {
				nested = append(nested, f)
				continue
			}
			if name == "-" || !f.IsExported() || seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, prefix+name)
			if ft := f.Type; ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
				out = append(out, jsonFields(ft.Elem(), prefix+name+"[].")...)
			}
		}
		for _, f := range nested { // depth after the outer fields: they win
			walk(f.Type, true)
		}
	}
	walk(t, false)
	return out
}

// TestDocPythonStage runs the Python scorer of "Writing your own stage" on
// the doc example and on the input shown by hand: its output must decode
// strictly as a scored doc, and the shown output must be what it prints.
func TestDocPythonStage(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	sections, doc := readSections(t)
	m := regexp.MustCompile("(?s)```python[^\\n]*\\n(.*?)```").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("no ```python block in docs/records.md")
	}
	script := filepath.Join(t.TempDir(), "keyword_score.py")
	if err := os.WriteFile(script, []byte(m[1]), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(input string, args ...string) string {
		cmd := exec.Command(python, append([]string{script}, args...)...)
		cmd.Stdin = strings.NewReader(input)
		var errs bytes.Buffer
		cmd.Stderr = &errs
		out, err := cmd.Output()
		if err != nil || errs.Len() > 0 {
			t.Fatalf("python stage: %v, stderr %q", err, errs.String())
		}
		return string(out)
	}
	args := []string{"造林:2", "宜林地:1.5", "抚育:1", "林业:1"}
	out := run(sections[KindDoc].example+"\n", args...)
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var sd ScoredDoc
	if err := dec.Decode(&sd); err != nil {
		t.Fatalf("python output does not decode as a scored doc: %v\n%s", err, out)
	}
	if k, _ := Sniff([]byte(out)); k != KindScoredDoc || sd.Score <= 0 || len(sd.Links) == 0 || sd.Links[0].Priority <= 0 {
		t.Fatalf("python output: kind %s, score %v, links %+v", k, sd.Score, sd.Links)
	}
	if !bytes.Contains([]byte(out), []byte(`"meta": {"campaign": "forestry-2026"}`)) {
		t.Fatalf("meta not passed through: %s", out)
	}

	// The "By hand" block: $ echo '<input>' \ | python3 keyword_score.py ARGS, then the output.
	hand := regexp.MustCompile("(?s)```sh[^\\n]*\\n\\$ echo '([^']*)' \\\\\\n\\s*\\| python3 keyword_score.py ([^\\n]*)\\n(.*?)\\n```").FindStringSubmatch(doc)
	if hand == nil {
		t.Fatal("no by-hand example of the python stage")
	}
	got := run(hand[1]+"\n", strings.Fields(hand[2])...)
	if sc := bufio.NewScanner(strings.NewReader(got)); sc.Scan() && sc.Text() != hand[3] {
		t.Fatalf("docs show\n%s\nbut the script prints\n%s", hand[3], sc.Text())
	}
}
