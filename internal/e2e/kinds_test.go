package e2e

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Every stage names a record of another stage's kind, and a line of
// invalid UTF-8, by its line, and writes nothing for it.
func TestStagesRejectWrongKinds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the stages")
	}
	bin := stages(t)
	topic, _ := filepath.Abs("../../examples/topics/forestry.yaml")
	url := `{"url":"http://a.example/","depth":1}`
	page := `{"url":"http://a.example/","status":200,"content_type":"text/html","html":"<title>forest</title><p>forest trees</p>"}`
	doc := `{"url":"http://a.example/","status":200,"title":"forest","content":"forest trees","tokens":["forest","trees"],"blocks":[]}`
	badUTF8 := `{"url":"http://a.example/","status":200,"title":"` + "\xff" + `","content":"forest trees","tokens":["forest"],"blocks":[]}`
	for _, tc := range []struct {
		stage []string
		in    string
		want  string
	}{
		{[]string{"segment", "--topic", topic}, url, "a url record (seed next's or seed urls' output), where a page record (fetch's output) is wanted"},
		{[]string{"score", "--topic", topic}, url, "a url record (seed next's or seed urls' output), where a doc record"},
		{[]string{"score", "--topic", topic}, page, "a page record (fetch's output), where a doc record"},
		{[]string{"dedupe"}, url, "a url record (seed next's or seed urls' output), where a scored doc"},
		{[]string{"fetch"}, doc, "a doc record (segment's output), where a url record"},
		{[]string{"score", "--topic", topic}, badUTF8, "invalid UTF-8 at byte 49"},
		{[]string{"segment", "--topic", topic}, strings.Replace(page, "forest trees", "\xfe", 1), "invalid UTF-8 at byte"},
		{[]string{"dedupe"}, badUTF8, "invalid UTF-8 at byte 49"},
		{[]string{"seed", "add", "--db", filepath.Join(t.TempDir(), "f.db")}, badUTF8, "invalid UTF-8 at byte 49"},
	} {
		name := strings.Join(tc.stage[:1], " ")
		cmd := exec.Command(filepath.Join(bin, tc.stage[0]), append(tc.stage[1:], "-q")...)
		cmd.Stdin = strings.NewReader("\n" + tc.in + "\n")
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("%s: %v, want exit 3; stderr %q", name, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "stdin:2: ") || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s: stderr %q lacks stdin:2: %s", name, stderr.String(), tc.want)
		}
		if out.Len() > 0 || !utf8.Valid(out.Bytes()) {
			t.Errorf("%s wrote %q", name, out.String())
		}
	}
}
