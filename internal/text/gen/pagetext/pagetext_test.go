package pagetext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	// GBK bytes of 森林 with a meta charset: decoded; scripts, styles and svg out.
	page := []byte("<html><head><meta charset=\"gbk\"><style>p{}</style><script>var x=1</script></head>" +
		"<body><p>\xc9\xad\xc1\xd6</p><svg><text>no</text></svg><p>b</p></body></html>")
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"a.html", page, "森林|b"},
		{"b.HTM", []byte("<p>x<template>y</template></p>"), "x"},
		{"c.txt", []byte("<p>kept as is</p>"), "<p>kept|as|is</p>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Read(path)
			// The words, in order: blocks are apart, hidden text is gone.
			if err != nil || strings.Join(strings.Fields(got), "|") != tt.want {
				t.Fatalf("Read = %q, %v; want the words %q", got, err, tt.want)
			}
		})
	}
	if _, err := Read(filepath.Join(dir, "missing.html")); err == nil {
		t.Error("a missing file read without error")
	}
}
