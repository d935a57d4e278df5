package main

import (
	"encoding/json"
	"fmt"
)

// tokenList decodes a doc's "tokens" array with one allocation: the
// array's bytes become one string and each token without escapes is a
// slice of it (decoding into []string allocated a string per token, and
// a scored doc carries hundreds of them). Tokens with escapes are decoded
// one by one.
type tokenList []string

// UnmarshalJSON implements json.Unmarshaler. encoding/json has already
// checked that b is valid JSON.
func (l *tokenList) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*l = nil
		return nil
	}
	s := string(b)
	out := (*l)[:0]
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return fmt.Errorf("tokens: want an array of strings")
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		*l = tokenList{}
		return nil
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return fmt.Errorf("tokens: want an array of strings")
		}
		j, escaped := i+1, false
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(s) {
			return fmt.Errorf("tokens: unterminated string")
		}
		if escaped {
			var t string
			if err := json.Unmarshal(b[i:j+1], &t); err != nil {
				return fmt.Errorf("tokens: %w", err)
			}
			out = append(out, t)
		} else {
			out = append(out, s[i+1:j])
		}
		i = skipSpace(s, j+1)
		if i < len(s) && s[i] == ']' {
			*l = out
			return nil
		}
		if i >= len(s) || s[i] != ',' {
			return fmt.Errorf("tokens: want an array of strings")
		}
		i = skipSpace(s, i+1)
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}
