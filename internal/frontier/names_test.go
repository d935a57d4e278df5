package frontier

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// scriptLiteral is a raw string of Go: the stores' SQL and Lua.
var scriptLiteral = regexp.MustCompile("(?s)`[^`]*`")

// storeSources reads the Go files (not tests) of this package whose names
// begin with one of prefixes: file name -> text.
func storeSources(t *testing.T, prefixes ...string) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(f, p) }) {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(src)
	}
	return out
}

// TestNoStateNumbers: the SQL and Lua of the stores name URL states and
// host modes ({queued}, ST_QUEUED, HOST_PARKED), never write them as bare
// numbers, so that the Go constants stay the one definition.
func TestNoStateNumbers(t *testing.T) {
	bare := []*regexp.Regexp{
		regexp.MustCompile(`\bstate\s*(=|<>|!=|==|~=)\s*\d`),
		regexp.MustCompile(`\bstate\s+IN\s*\(\s*\d`),
		regexp.MustCompile(`\bparked\s*(=|==|~=)\s*\d`),
		regexp.MustCompile(`\bparked\s+IN\s*\(\s*\d`),
		regexp.MustCompile(`\[(STATE|PK)\]\s*(==|~=|=)\s*\d`),
		regexp.MustCompile(`\b(before|s)\s*(==|~=)\s*\d`),
		regexp.MustCompile(`\bmove(state)?\([^)]*,\s*\d,`),
		regexp.MustCompile(`THEN \d+ ELSE \d+`),
	}
	checked := 0
	for f, src := range storeSources(t, "sql", "redis", "pg") {
		for _, lit := range scriptLiteral.FindAllString(src, -1) {
			checked++
			for _, re := range bare {
				if m := re.FindString(lit); m != "" {
					t.Errorf("%s: a state or host mode written as a number: %q", f, m)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d SQL and Lua strings: the file layout changed under this test", checked)
	}
}

// TestNoPositionalRows: the Lua scripts read the rows Go sends them, the
// records they store and the replies of Redis by name (the layouts of
// redis_record.go and redis_rows.go, or unpack), never by a bare index;
// and the Go side reads a script's answer by those names too, not by its
// place in a row.
func TestNoPositionalRows(t *testing.T) {
	// In Lua: x[3], f(x)[2]; ARGV and KEYS are Redis's own.
	luaIndex := regexp.MustCompile(`([A-Za-z_][A-Za-z_0-9.]*|\))\[\s*\d+\s*\]`)
	// In Go: a script's answer read by place (str(f[3]), num(rows[i+2]),
	// rows[i+1] …), or a state written into a counter's key ("n:4:").
	goRules := []*regexp.Regexp{
		regexp.MustCompile(`\b(str|num|flt)\(\s*\w+\[\s*\d+\s*\]`),
		regexp.MustCompile(`\w\[\s*\w+\s*\+\s*\d+\s*\]`),
		regexp.MustCompile(`"n:\d`),
	}
	comment := regexp.MustCompile(`(?m)//.*$`)
	scripts := 0
	for f, src := range storeSources(t, "redis") {
		for _, lit := range scriptLiteral.FindAllString(src, -1) {
			scripts++
			for _, line := range strings.Split(lit, "\n") {
				if i := strings.Index(line, "--"); i >= 0 {
					line = line[:i] // a Lua comment
				}
				for _, m := range luaIndex.FindAllStringSubmatch(line, -1) {
					if m[1] != "ARGV" && m[1] != "KEYS" {
						t.Errorf("%s: a script reads a row by place: %q in %q", f, m[0], strings.TrimSpace(line))
					}
				}
			}
		}
		code := comment.ReplaceAllString(scriptLiteral.ReplaceAllString(src, "``"), "")
		for _, re := range goRules {
			for _, m := range re.FindAllString(code, -1) {
				t.Errorf("%s: Go reads a script's answer by place: %q", f, m)
			}
		}
	}
	if scripts < 20 {
		t.Fatalf("checked only %d Lua strings: the file layout changed under this test", scripts)
	}
}

// TestLuaMaker: a maker's params keep their order, each goes to its
// field's place, and fields that are not 1 … n are refused.
func TestLuaMaker(t *testing.T) {
	got := luaMaker("f", []luaName{{"b", 2}, {"c", 3}, {"a", 1}})
	if want := "local function f(b, c, a) return {a, b, c} end\n"; got != want {
		t.Errorf("luaMaker = %q, want %q", got, want)
	}
	for _, bad := range [][]luaName{{{"a", 1}, {"b", 3}}, {{"a", 1}, {"b", 1}}, {{"a", 0}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("luaMaker(%v) did not refuse its fields", bad)
				}
			}()
			luaMaker("f", bad)
		}()
	}
}
