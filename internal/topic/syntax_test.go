package topic

import (
	"errors"
	"testing"
)

// TestSyntaxErrorLine: the YAML parser names the line where the enclosing
// mapping began; the error must name the line of the problem.
func TestSyntaxErrorLine(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		line int
	}{
		{"list item in a mapping", "name: x\n- a\n", 2},
		{"key missing", "name: x\n: a\n", 2},
		{"unclosed flow list", "name: x\nkeywords: [a, b\n", 2},
		{"problem further down", "name: x\ndescription: d\nkeywords:\n  - a\n- b\nlanguage: en\n", 5},
		{"tab indentation", "name: x\n\tkeywords: a\n", 2},
		{"first line", "- a\nname: x\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), "t.yaml")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want *Error", err)
			}
			if e.Line != tt.line {
				t.Fatalf("%v: line %d, want %d", err, e.Line, tt.line)
			}
		})
	}
}
