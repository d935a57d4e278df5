package jsonl

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// stdJSON is what encoding/json writes for v without HTML escaping.
func stdJSON(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.5, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, -2.5e-9, 1e20, 1e21, -1.5e21, 123456789.125,
		math.SmallestNonzeroFloat64, math.MaxFloat64, math.Copysign(0, -1)} {
		got := AppendFloat([]byte("x"), f)
		if want := append([]byte("x"), stdJSON(t, f)...); !bytes.Equal(got, want) {
			t.Errorf("AppendFloat(%g) = %s, encoding/json %s", f, got, want)
		}
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain ascii, long enough for words", "a\"b\\c", "<a href=\"x?a=1&b=2\">", "森林经营 造林\u2028\u2029",
		"\xe2\x80", "\xed\xa0\x80", "\xe0\x80\x80x", "\t\n\r\b\f\x00\x1f\x7f", "𠀀😀", "\xff\xfe 12345678 \xff"} {
		got := AppendString([]byte("["), s)
		if want := append([]byte("["), stdJSON(t, s)...); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
	}
}

// FuzzAppendString: the fast escaper writes exactly what encoding/json
// writes, for any string (invalid UTF-8, controls, U+2028 included).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "森林\u2028\u2029", "\xe2\x80", "\xed\xa0\x80", "\xe0\x80\x80x", "<p>\t\n\x00\x7f</p>", "𠀀😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString(nil, s)
		if want := stdJSON(t, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json %s", s, got, want)
		}
	})
}

func TestAppendStrings(t *testing.T) {
	for _, ss := range [][]string{nil, {}, {"a"}, {"a\"b", "森林", "\xff"}} {
		got := AppendStrings([]byte("x"), ss)
		want, _ := json.Marshal(ss)
		if ss == nil {
			want = []byte("[]")
		}
		if string(got) != "x"+string(want) {
			t.Errorf("AppendStrings(%q) = %s, want x%s", ss, got, want)
		}
	}
}
