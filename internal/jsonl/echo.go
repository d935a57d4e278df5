package jsonl

import (
	"fmt"
	"unicode/utf8"
)

// MaxEcho is about how many bytes of a message quoting bad input (a URL,
// a value, a line) go to the log: enough to recognise the input and read
// the reason, not a 10 MB line on stderr.
const MaxEcho = 300

// Echo shortens a long message by cutting out its middle, at character
// boundaries: the start names the input, the end usually says what is
// wrong with it.
func Echo(s string) string {
	if len(s) <= MaxEcho {
		return s
	}
	head, tail := MaxEcho*2/3, len(s)-MaxEcho/3
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return fmt.Sprintf("%s…[%d bytes cut]…%s", s[:head], tail-head, s[tail:])
}
