package frontier

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRedisAnswerNamesABadField: a script's answer with a field not of
// the type Go reads (a record damaged so that a URL's status or tries is
// text) fails the read with the field's name, rather than giving a 0 in
// its place.
func TestRedisAnswerNamesABadField(t *testing.T) {
	ctx := context.Background()
	s, _ := openTestRedis(t)
	// spoil sets a field of a URL's record to text.
	spoil := func(u, field string) {
		t.Helper()
		src := luaPrelude + `
local id, r = find(ARGV[1], unhex(ARGV[2]))
r[` + field + `] = 'spoilt'
putrec(id, r)
return 1
`
		if err := s.Client().Eval(ctx, src, []string{s.prefix}, u, hexID(u)).Err(); err != nil {
			t.Fatal(err)
		}
	}
	cQueue(t, s, entry("http://a.cn/1", "a.cn", 0.9, 0))
	if got := lease(t, s, LeaseRequest{N: 1}); len(got) != 1 {
		t.Fatalf("leased %v", got)
	}
	cReport(t, s, fastPolicy(), Outcome{URL: "http://a.cn/1", Status: 200})
	cQueue(t, s, entry("http://a.cn/2", "a.cn", 0.8, 0))
	spoil("http://a.cn/1", "STATUS")
	spoil("http://a.cn/2", "TRIES")

	var fetched []Fetched
	err := s.History(ctx, func(f Fetched) error { fetched = append(fetched, f); return nil })
	if err == nil || !strings.Contains(err.Error(), "HI_STATUS") {
		t.Errorf("History of a URL whose status is text: %+v, error %v; want an error naming HI_STATUS", fetched, err)
	}
	peeked, err := s.Peek(ctx, 10)
	if err == nil || !strings.Contains(err.Error(), "PE_TRIES") {
		t.Errorf("Peek at a URL whose tries are text: %+v, error %v; want an error naming PE_TRIES", peeked, err)
	}
}

// TestAnswerReaders: a value of a script's answer reads as its type, a
// number as text or text as a number, and anything else (nil from a Lua
// false, a table, text that is no number) is an error that names it.
func TestAnswerReaders(t *testing.T) {
	if v, err := answerInt("n", "12"); v != 12 || err != nil {
		t.Errorf(`answerInt("12") = %d, %v`, v, err)
	}
	if v, err := answerText("s", int64(7)); v != "7" || err != nil {
		t.Errorf("answerText(7) = %q, %v", v, err)
	}
	for _, v := range []any{nil, "", "1.5", []any{int64(1)}} {
		if _, err := answerInt("the count", v); err == nil || !strings.Contains(err.Error(), "the count is") {
			t.Errorf("answerInt(%#v): %v; want an error naming the count", v, err)
		}
	}
	for _, v := range []any{nil, []any{}} {
		if _, err := answerText("the cursor", v); err == nil || !strings.Contains(err.Error(), "the cursor is") {
			t.Errorf("answerText(%#v): %v; want an error naming the cursor", v, err)
		}
	}
	rows, err := rowsOf([]any{[]any{"http://a.cn/", "x"}}, scoreAnswer)
	if err != nil {
		t.Fatal(err)
	}
	row := rows[0]
	if u, f := row.str(scoreURL), row.flt(scoreValue); u != "http://a.cn/" || f != 0 || row.err == nil ||
		!strings.Contains(row.err.Error(), "PS_SCORE is string x") {
		t.Errorf("a score of text: %q, %v, error %v; want an error naming PS_SCORE", u, f, row.err)
	}
	for _, l := range answerLayouts {
		for i := range l {
			if l.name(i+1) == fmt.Sprint(i+1) || !strings.Contains(luaLocals(l), l.name(i+1)) {
				t.Errorf("layout %v: field %d has no name", l, i+1)
			}
		}
		if slices.ContainsFunc(l, func(n luaName) bool { return n.value < 1 || n.value > int64(len(l)) }) {
			t.Errorf("layout %v: fields not 1 … %d", l, len(l))
		}
	}
}
