package frontier

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

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
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile("(?s)`[^`]*`")
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || !(strings.HasPrefix(f, "sqlite") || strings.HasPrefix(f, "redis") || strings.HasPrefix(f, "pg")) {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, lit := range literal.FindAllString(string(src), -1) {
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
