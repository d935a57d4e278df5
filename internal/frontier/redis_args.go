package frontier

import (
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Each Lua script of the Redis store declares the layout of its
// arguments (ARGV) once, in Go: the slots, named and numbered from 1 as
// Lua counts, or for a script that takes a list, the fields of one of its
// rows, which follow one another. Go fills the slots by name
// (redisScript.args, scriptRow.set) and run refuses arguments of another
// count or a slot left unset; the script is given the same names as one
// Lua table, ARG, and reads ARGV[ARG.NOW], or ARGV[i + ARG.ID] in the row
// that follows slot i (ARG.W: the width of a row). A table rather than
// one local per name: the apply script is near Lua's bound of 200 locals.
// Both sides number nothing themselves (TestNoPositionalArgs).

// scriptArgs is the layout of one script's arguments.
type scriptArgs struct {
	names []string // by slot, from 1
	rows  bool     // names are the fields of a row, and ARGV any number of rows
}

// argSlots is the layout of a script that takes one argument per slot;
// the slots must be 1 … len(slots).
func argSlots(slots ...luaName) scriptArgs { return scriptArgs{names: slotNames(slots)} }

// argRows is the layout of a script that takes a list of rows of these
// fields, 1 … len(fields).
func argRows(fields ...luaName) scriptArgs { return scriptArgs{names: slotNames(fields), rows: true} }

func slotNames(slots []luaName) []string {
	names := make([]string, len(slots))
	for _, s := range slots {
		if s.value < 1 || s.value > int64(len(slots)) || names[s.value-1] != "" || s.name == "W" {
			panic(fmt.Sprintf("frontier: script arguments %v: the slots are not 1 … %d", slots, len(slots)))
		}
		names[s.value-1] = s.name
	}
	return names
}

// width is how many slots a call takes, or how many fields a row has.
func (a scriptArgs) width() int { return len(a.names) }

// lua declares the layout as the table ARG ("" for a script that takes
// no argument).
func (a scriptArgs) lua() string {
	if len(a.names) == 0 {
		return ""
	}
	fields := make([]luaName, len(a.names))
	for i, n := range a.names {
		fields[i] = luaName{n, int64(i + 1)}
	}
	if a.rows {
		fields = append(fields, luaName{"W", int64(len(a.names))})
	}
	return luaTable("ARG", fields)
}

// check tells whether args fill the layout: every slot, each once, or
// whole rows.
func (a scriptArgs) check(args scriptRow) error {
	n := len(a.names)
	switch {
	case a.rows && (n == 0 || len(args)%n != 0):
		return fmt.Errorf("%d arguments are not rows of %d", len(args), n)
	case !a.rows && len(args) != n:
		return fmt.Errorf("%d arguments for %d slots %s", len(args), n, strings.Join(a.names, ", "))
	}
	for i, v := range args {
		if v == nil {
			return fmt.Errorf("argument %s unset", a.names[i%n])
		}
	}
	return nil
}

// redisScript is a Lua script of the store with the layout of its
// arguments.
type redisScript struct {
	name   string
	layout scriptArgs
	src    string // as sent: the layout's names, then the script
	*redis.Script
}

// redisScripts lists every script, for tests.
var redisScripts []*redisScript

// newRedisScript makes a script that reads its arguments by the names of
// layout.
func newRedisScript(name string, layout scriptArgs, src string) *redisScript {
	sc := &redisScript{name: name, layout: layout, src: layout.lua() + src}
	sc.Script = redis.NewScript(sc.src)
	redisScripts = append(redisScripts, sc)
	return sc
}

// args makes the arguments of one call, to fill by slot (set); for a
// script that takes rows, none yet: append rows made by row.
func (sc *redisScript) args() scriptRow {
	if sc.layout.rows {
		return nil
	}
	return newRow(sc.layout.width())
}

// row makes one row of a script that takes rows, to fill by field.
func (sc *redisScript) row() scriptRow { return newRow(sc.layout.width()) }

// luaTable declares a Lua table of names, name = {FIELD = value, …},
// that fails on reading a field it lacks (a misspelt name is an error,
// not nil).
func luaTable(name string, fields []luaName) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = fmt.Sprintf("%s = %d", f.name, f.value)
	}
	return luaTableOf(name, parts)
}

// luaTag is a Go string constant as a Lua script names it: a tag that
// goes between Go and a script.
type luaTag struct{ name, value string }

// luaTags declares tags as a Lua table of names, as luaTable does.
func luaTags(name string, tags []luaTag) string {
	parts := make([]string, len(tags))
	for i, t := range tags {
		if strings.ContainsAny(t.value, "'\\\n") {
			panic(fmt.Sprintf("frontier: tag %s: %q needs quoting in Lua", t.name, t.value))
		}
		parts[i] = fmt.Sprintf("%s = '%s'", t.name, t.value)
	}
	return luaTableOf(name, parts)
}

func luaTableOf(name string, parts []string) string {
	return fmt.Sprintf("local %s = setmetatable({%s}, {__index = function(_, k) error('frontier: no %s.' .. k) end})\n",
		name, strings.Join(parts, ", "), name)
}
