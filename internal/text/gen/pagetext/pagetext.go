// Package pagetext reads the sample files of the measurement commands
// under internal/text/gen (agree, tokenize): an HTML file is decoded to
// UTF-8 (internal/charset) and reduced to its visible text, any other file
// is read as UTF-8 text, so that both commands measure the same text.
package pagetext

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"

	"github.com/focuscrawl/focuscrawl/internal/charset"
)

// Read returns the text of the named file: the visible text when its name
// ends in .html or .htm, else its content.
func Read(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	if !IsHTML(name) {
		return string(b), nil
	}
	u, _, err := charset.Decode(b, "")
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	t, err := VisibleText(u)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// IsHTML tells whether a file name ends in .html or .htm.
func IsHTML(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".html" || ext == ".htm"
}

// VisibleText returns the text nodes of an HTML document outside script,
// style, noscript, template and svg elements, a line break after every
// end tag so that blocks do not run together.
func VisibleText(s string) (string, error) {
	z := html.NewTokenizer(strings.NewReader(s))
	var b bytes.Buffer
	hidden := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return b.String(), fmt.Errorf("html: %w", err)
			}
			return b.String(), nil
		case html.StartTagToken:
			if isHidden(z) {
				hidden++
			}
		case html.EndTagToken:
			if isHidden(z) && hidden > 0 {
				hidden--
			}
			b.WriteByte('\n')
		case html.TextToken:
			if hidden == 0 {
				b.Write(z.Text())
			}
		}
	}
}

func isHidden(z *html.Tokenizer) bool {
	name, _ := z.TagName()
	switch string(name) {
	case "script", "style", "noscript", "template", "svg":
		return true
	}
	return false
}
