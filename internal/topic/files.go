package topic

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// fileRef is a file named in the profile, with where it was named.
type fileRef struct {
	path string // resolved
	key  string
	node *yaml.Node
}

// resolvePath makes a path named in the profile relative to the profile's
// directory; "~/" is the home directory.
func (d *decoder) resolvePath(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(d.dir, p)
}

// fileRefs reads a list of file names and checks that each exists.
func (d *decoder) fileRefs(path string, v *yaml.Node) []fileRef {
	var out []fileRef
	d.sequence(path, v, true, func(ip string, item *yaml.Node) {
		s, ok := d.term(ip, item)
		if !ok {
			return
		}
		f := fileRef{path: d.resolvePath(s), key: ip, node: item}
		if _, err := os.Stat(f.path); err != nil {
			d.add(item, ip, err, "missing file %s", s)
			return
		}
		out = append(out, f)
	})
	return out
}

// readText reads a UTF-8 text file named in the profile, dropping a BOM.
func (d *decoder) readText(f fileRef) (string, bool) {
	data, err := os.ReadFile(f.path)
	if err != nil {
		d.add(f.node, f.key, err, "cannot read file")
		return "", false
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		d.errorf(f.node, f.key, "%s:%d: not UTF-8 text (convert it with iconv)", f.path, line)
		return "", false
	}
	return string(data), true
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// termFile reads a term list: one term per line (the whole trimmed line, so
// "Pinus massoniana" is one term); blank lines and lines starting with #
// are skipped, and a trailing frequency and part-of-speech tag (gse and
// jieba dictionaries: "宜林地 100000 n") are dropped.
func (d *decoder) termFile(f fileRef) []string {
	text, ok := d.readText(f)
	if !ok {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), len(text)+1)
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if m := freqLine.FindStringSubmatch(t); m != nil {
			t = m[1]
		}
		out = append(out, t)
	}
	return out
}

// freqLine is a line of a gse or jieba dictionary, "term frequency [pos]":
// such files are taken as they are, keeping the term only.
var freqLine = regexp.MustCompile(`^(\S.*?)\s+[0-9]+(\.[0-9]+)?(\s+[A-Za-z]{1,4})?$`)

var exampleKeys = []string{"positive", "negative"}
var exampleItemKeys = []string{"url", "file", "text"}

// examples reads the labelled examples. An item is a URL, a file name
// (relative to the profile), or {url|file|text: …}. A file whose every
// non-comment line is a URL is a list of URL examples; any other file is
// one text example.
func (d *decoder) examples(path string, v *yaml.Node) Examples {
	var ex Examples
	d.mapping(path, v, exampleKeys, func(key, kp string, _, list *yaml.Node) {
		positive := key == "positive"
		d.sequence(kp, list, true, func(ip string, item *yaml.Node) {
			for _, e := range d.example(ip, item) {
				e.Positive = positive
				ex.Items = append(ex.Items, e)
				s := e.Text
				if e.URL != "" {
					s = e.URL
				}
				if positive {
					ex.Positive = append(ex.Positive, s)
				} else {
					ex.Negative = append(ex.Negative, s)
				}
			}
		})
	})
	return ex
}

func (d *decoder) example(path string, item *yaml.Node) []Example {
	if item.Kind == yaml.MappingNode {
		var out []Example
		d.mapping(path, item, exampleItemKeys, func(key, kp string, _, n *yaml.Node) {
			if len(out) > 0 {
				d.errorf(resolve(n), kp, "an example is one of url, file or text, not several")
				return
			}
			switch key {
			case "url":
				out = d.exampleString(kp, n, true, false)
			case "file":
				out = d.exampleString(kp, n, false, true)
			case "text":
				if s, ok := d.term(kp, n); ok {
					out = []Example{{Text: s}}
				}
			}
		})
		return out
	}
	return d.exampleString(path, item, true, true)
}

// exampleString reads a URL or a file name.
func (d *decoder) exampleString(path string, n *yaml.Node, urlOK, fileOK bool) []Example {
	s, ok := d.term(path, n)
	if !ok {
		return nil
	}
	if urlOK && strings.Contains(s, "://") {
		if err := checkURL(s); err != nil {
			d.add(resolve(n), path, err, "bad example URL %q", s)
			return nil
		}
		return []Example{{URL: s}}
	}
	if !fileOK {
		d.errorf(resolve(n), path, "want an absolute http(s) URL, got %q", s)
		return nil
	}
	f := fileRef{path: d.resolvePath(s), key: path, node: resolve(n)}
	if _, err := os.Stat(f.path); err != nil {
		d.add(f.node, path, err, "missing example file %s (an example is an http(s) URL, a text file, or {text: …})", s)
		return nil
	}
	text, ok := d.readText(f)
	if !ok {
		return nil
	}
	if urls := urlLines(text); urls != nil {
		out := make([]Example, 0, len(urls))
		for _, u := range urls {
			out = append(out, Example{URL: u, File: f.path})
		}
		return out
	}
	text = strings.TrimSpace(text)
	if text == "" {
		d.errorf(f.node, path, "example file %s is empty", s)
		return nil
	}
	return []Example{{Text: text, File: f.path}}
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if u.Host == "" {
		return fmt.Errorf("no host")
	}
	return nil
}

// urlLines returns the lines of text when every non-blank, non-comment line
// is an http(s) URL (and there is at least one), else nil.
func urlLines(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if !IsURL(t) || checkURL(t) != nil {
			return nil
		}
		out = append(out, t)
	}
	return out
}
