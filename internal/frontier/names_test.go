package frontier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// scriptLiteral is a raw string of Go: the stores' SQL and Lua.
var scriptLiteral = regexp.MustCompile("(?s)`[^`]*`")

// redisSource is a Go file of the Redis store as the name checks read
// it: its Lua scripts (its raw string literals), and its Go code without
// them and without comments.
type redisSource struct {
	file, src string
	scripts   []string
	code      string
}

// redisSources reads the Redis store's files; it fails the test when they
// hold fewer than 20 scripts: the file layout changed under the checks.
func redisSources(t *testing.T) []redisSource {
	t.Helper()
	comment := regexp.MustCompile(`(?m)//.*$`)
	var out []redisSource
	scripts := 0
	for f, src := range storeSources(t, "redis") {
		s := redisSource{file: f, src: src, scripts: scriptLiteral.FindAllString(src, -1),
			code: comment.ReplaceAllString(scriptLiteral.ReplaceAllString(src, "``"), "")}
		scripts += len(s.scripts)
		out = append(out, s)
	}
	if scripts < 20 {
		t.Fatalf("checked only %d Lua strings: the file layout changed under this test", scripts)
	}
	return out
}

// reportMatches fails the test on each match of rules in text, saying
// what it is (what) in file.
func reportMatches(t *testing.T, file, text string, rules []*regexp.Regexp, what string) {
	t.Helper()
	for _, re := range rules {
		for _, m := range re.FindAllString(text, -1) {
			t.Errorf("%s: %s: %q", file, what, m)
		}
	}
}

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
	// In Lua: x[3], f(x)[2], ARGV[1]; KEYS is Redis's own, with one key.
	luaIndex := regexp.MustCompile(`([A-Za-z_][A-Za-z_0-9.]*|\))\[\s*\d+\s*\]`)
	// In Go: a script's answer read by place (str(f[3]), num(rows[i+2]),
	// rows[i+1] …), or a state written into a counter's key ("n:4:").
	goRules := []*regexp.Regexp{
		regexp.MustCompile(`\b(str|num|flt|answerText|answerInt|textOf|intOf|floatOf)\([^)]*\w+\[\s*\d+\s*\]`),
		regexp.MustCompile(`\w\[\s*\w+\s*\+\s*\d+\s*\]`),
		regexp.MustCompile(`"n:\d`),
	}
	for _, s := range redisSources(t) {
		for _, lit := range s.scripts {
			for _, line := range strings.Split(lit, "\n") {
				if i := strings.Index(line, "--"); i >= 0 {
					line = line[:i] // a Lua comment
				}
				for _, m := range luaIndex.FindAllStringSubmatch(line, -1) {
					if m[1] != "KEYS" {
						t.Errorf("%s: a script reads a row by place: %q in %q", s.file, m[0], strings.TrimSpace(line))
					}
				}
			}
		}
		reportMatches(t, s.file, s.code, goRules, "Go reads a script's answer by place")
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

// TestNoPositionalArgs: a script reads its arguments by the names of its
// layout (scriptArgs), never by place: ARGV[ARG.NOW], or ARGV[i + ARG.ID]
// in a list of rows, not ARGV[1], ARGV[i + 1], unpack(ARGV) or a loop
// from a bare slot; every name it reads is one of its layout's, and it
// reads each of them.
func TestNoPositionalArgs(t *testing.T) {
	bare := []*regexp.Regexp{
		regexp.MustCompile(`ARGV\s*\[\s*\d`),
		regexp.MustCompile(`ARGV\s*\[[^\]]*[-+*]\s*\d`),
		regexp.MustCompile(`\b(unpack|ipairs)\(\s*ARGV\s*[,)]`),
		regexp.MustCompile(`=\s*[1-9]\d*\s*,\s*#ARGV`),
	}
	for _, s := range redisSources(t) {
		for _, lit := range s.scripts {
			reportMatches(t, s.file, lit, bare, "a script reads its arguments by place")
		}
		if strings.Count(s.src, "redis.NewScript(") > strings.Count(s.src, "func newRedisScript(") {
			t.Errorf("%s: a script made without the layout of its arguments (newRedisScript)", s.file)
		}
	}
	read := regexp.MustCompile(`ARGV\s*\[\s*(?:\w+\s*\+\s*)?ARG\.(\w+)\s*\]`)
	named := regexp.MustCompile(`\bARG\.(\w+)`)
	if len(redisScripts) < 18 {
		t.Fatalf("only %d scripts listed", len(redisScripts))
	}
	for _, sc := range redisScripts {
		body := strings.TrimPrefix(sc.src, sc.layout.lua())
		if strings.Contains(body, "ARGV") != (sc.layout.width() > 0) {
			t.Errorf("script %s: reads ARGV: %v, layout of %d slots", sc.name, strings.Contains(body, "ARGV"), sc.layout.width())
		}
		for _, m := range named.FindAllStringSubmatch(body, -1) {
			if !slices.Contains(sc.layout.names, m[1]) && (m[1] != "W" || !sc.layout.rows) {
				t.Errorf("script %s reads ARG.%s, not in its layout %v", sc.name, m[1], sc.layout.names)
			}
		}
		seen := map[string]bool{}
		for _, m := range read.FindAllStringSubmatch(body, -1) {
			seen[m[1]] = true
		}
		for _, n := range sc.layout.names {
			if !seen[n] {
				t.Errorf("script %s never reads ARGV[ARG.%s]: Go sends what it does not read", sc.name, n)
			}
		}
	}
}

// TestScriptArgsChecked: run refuses arguments that do not fill a
// script's layout: a slot too few or too many, a slot left unset, a row
// cut short. Every script is checked, and the check comes before Redis
// is asked.
func TestScriptArgsChecked(t *testing.T) {
	s := &RedisStore{rdb: redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})} // never reached
	defer s.rdb.Close()
	ctx := context.Background()
	for _, sc := range redisScripts {
		full := sc.args()
		if sc.layout.rows {
			full = append(full, sc.row()...)
		}
		for i := range full {
			full[i] = "x"
		}
		if err := sc.layout.check(full); err != nil {
			t.Errorf("script %s: every slot filled: %v", sc.name, err)
		}
		bad := map[string]scriptRow{"one more": append(slices.Clone(full), "x")}
		if len(full) > 0 {
			bad["one fewer"] = full[:len(full)-1]
			unset := slices.Clone(full)
			unset[len(unset)-1] = nil
			bad["one unset"] = unset
		}
		if sc.layout.rows && sc.layout.width() == 1 {
			delete(bad, "one more") // a whole row
			delete(bad, "one fewer")
		}
		for what, args := range bad {
			if _, err := s.run(ctx, sc, args); err == nil || !strings.Contains(err.Error(), "script "+sc.name+":") {
				t.Errorf("script %s, %s argument: run said %v", sc.name, what, err)
			}
		}
	}
}

// TestNoTagStrings: the tags that go between Go and the scripts (a
// lease's answer, why an apply wrote nothing, what a host step does) are
// Go constants, given to the scripts by name (LEASE.OK, AGAIN.MOVED,
// CHANGE.PARK): neither side writes one as a string of its own.
func TestNoTagStrings(t *testing.T) {
	lua := []*regexp.Regexp{
		regexp.MustCompile(`\b(reply|again)\(\s*'`),
		regexp.MustCompile(`return nil,\s*'`),
		regexp.MustCompile(`\.(change|act)\s*(==|~=)\s*'`),
	}
	goRules := []*regexp.Regexp{
		regexp.MustCompile(`case "[^"]+"`),
		regexp.MustCompile(`\.(Act|Change|Again)\s*(==|!=|=)\s*"`),
		regexp.MustCompile(`\b(Act|Change|Again):\s*"`),
	}
	for _, s := range redisSources(t) {
		for _, lit := range s.scripts {
			reportMatches(t, s.file, lit, lua, "a script writes a tag as a string")
		}
		reportMatches(t, s.file, s.code, goRules, "Go writes a tag as a string")
	}
}

// TestNoNameStrings: the keys, counters and figures that the scripts
// write and Go reads (KEY.STATS, COUNT.REQUEUED, ST.UNFETCHED …, the
// error kind of a URL robots.txt forbids) are Go constants, given to the
// scripts as the tables of luaNames: no script writes one as a string of
// its own, nor adds to a counter it names with one, and Go spells each
// only where it defines it (redis_names.go).
func TestNoNameStrings(t *testing.T) {
	var names []luaTag
	for _, table := range [][]luaTag{redisKeyNames, redisCounterNames, redisStatNames, redisMetaNames} {
		names = append(names, table...)
	}
	names = append(names, luaTag{"KIND.ROBOTS_DISALLOW", KindRobotsDisallow})
	// Spelt in the scripts for another thing as well: "r:" begins the
	// reserve's queues (TIER), ":" is every key's separator.
	luaOther := map[string]bool{stRelevant: true, stSep: true}
	addLiteral := regexp.MustCompile(`\badd\([^()]*'`)
	// In Go: a key, a figure or a counter as a string; a field of meta
	// as one in a call on meta.
	var goRules []*regexp.Regexp
	for _, n := range redisKeyNames {
		goRules = append(goRules, regexp.MustCompile(`key\("`+regexp.QuoteMeta(n.value)+`"`))
	}
	for _, table := range [][]luaTag{redisStatNames, redisCounterNames} {
		for _, n := range table {
			if n.value != stSep {
				goRules = append(goRules, regexp.MustCompile(`"`+regexp.QuoteMeta(n.value)+`"`))
			}
		}
	}
	for _, n := range redisMetaNames {
		goRules = append(goRules, regexp.MustCompile(`key\(keyMeta\)[^\n]*"`+regexp.QuoteMeta(n.value)+`"`))
	}
	for _, s := range redisSources(t) {
		for _, lit := range s.scripts {
			reportMatches(t, s.file, lit, []*regexp.Regexp{addLiteral}, "a script adds to a count it names with a string")
			for _, n := range names {
				if !luaOther[n.value] && strings.Contains(lit, "'"+n.value+"'") {
					t.Errorf("%s: a script writes %s as the string '%s'", s.file, n.name, n.value)
				}
			}
		}
		if s.file != "redis_names.go" {
			reportMatches(t, s.file, s.code, goRules, "Go writes a key, figure or counter as a string")
		}
	}
}

// TestStoredNames: the names of the keys, counters and figures are the
// stored layout: frontiers written before must read the same.
func TestStoredNames(t *testing.T) {
	want := map[string]string{
		"COUNTERS": "counters", "STATS": "st", "META": "meta", "HOST_URLS": "h:urls", "HOST_FETCHED": "h:fetched",
		"HOST_RELEVANT": "h:rel", "HOST_SITE": "h:site", "ROBOTS": "robots", "EDGES": "edges",
		"LEASE_EXPIRED": "lease.expired", "REQUEUED": "requeued", "REFUSED": "refused.",
		"REFUSED_MAX_PER_HOST": "refused.max-per-host", "REFUSED_ROBOTS": "refused.robots",
		"REFUSED_GIVEN_UP": "refused.host-given-up", "IN_STATE": "n:", "SEP": ":", "UNFETCHED": "u:",
		"RELEVANT": "r:", "REDIRECTS": "x", "REDIRECTS_RELEVANT": "xr", "FROM_RESERVE": "rf", "ROBOTS_VERSION": "robotsv", "LEARNING": "learning", "SEQ": "seq", "CLASS_SEQ": "classseq",
	}
	n := 0
	for _, table := range [][]luaTag{redisKeyNames, redisCounterNames, redisStatNames, redisMetaNames} {
		for _, tag := range table {
			n++
			if want[tag.name] != tag.value {
				t.Errorf("%s = %q, stored as %q", tag.name, tag.value, want[tag.name])
			}
		}
	}
	if n != len(want) {
		t.Errorf("%d names, %d stored", n, len(want))
	}
	if got, want := stateCountPrefix(Failed)+"2", fmt.Sprintf("n:%d:2", Failed); got != want {
		t.Errorf("the URLs failed at depth 2 are counted under %q, stored as %q", got, want)
	}
}
