package topic

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/focuscrawl/focuscrawl/internal/slicesx"
)

// Keys of a profile, in the order docs/topic.md lists them.
var profileKeys = []string{
	"name", "language", "description", "keywords", "examples",
	"dictionary", "dictionary_files", "stopwords", "stopword_files",
	"link_stopwords", "ad_hosts", "synonyms", "rules", "thresholds",
	"hosts", "extract",
}

// Load reads and checks the profile at path. Files the profile names
// (dictionary_files, stopword_files, example files) are resolved relative
// to the directory of path. Problems in the file are *Error values naming
// path, line and key.
func Load(path string) (*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read topic profile: %w", err)
	}
	return Parse(data, path)
}

// Parse checks the profile in data. name is the file name used in
// messages; the files the profile names are resolved relative to its
// directory.
func Parse(data []byte, name string) (*Profile, error) {
	if name == "" {
		name = "topic.yaml"
	}
	d := &decoder{file: name, dir: filepath.Dir(name)}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, d.syntaxError(err, data)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 || isNull(resolve(doc.Content[0])) {
		return nil, &Error{File: name, Msg: "empty topic profile"}
	}
	p := &Profile{
		Path:       name,
		Thresholds: Thresholds{Page: DefaultPageThreshold, Link: DefaultLinkThreshold},
		Synonyms:   map[string]float64{},
	}
	d.profile(resolve(doc.Content[0]), p)
	if len(d.errs) > 0 {
		return nil, errors.Join(d.errs...)
	}
	return p, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a YAML parse error into an *Error with its line.
// The YAML parser names the line where the construct around the problem
// began (the mapping of "name:" on line 1 when line 2 is "- a"), so the
// line of the problem itself is found as the shortest run of first lines
// that fails with the same message.
func (d *decoder) syntaxError(err error, data []byte) error {
	msg := err.Error()
	e := &Error{File: d.file, Msg: "YAML syntax: " + strings.TrimPrefix(msg, "yaml: ")}
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return e
	}
	e.Line, _ = strconv.Atoi(m[1])
	e.Msg = "YAML syntax: " + m[2]
	if line := problemLine(data, e.Line, m[2]); line > e.Line {
		e.Line = line
	}
	return e
}

// maxSyntaxSearch bounds the lines problemLine parses again.
const maxSyntaxSearch = 5000

// problemLine returns the first line n >= from such that the first n
// lines of data fail to parse with the message msg, or 0.
func problemLine(data []byte, from int, msg string) int {
	ends := []int{} // ends[i]: offset just past line i+1
	for i, b := range data {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(data) {
		ends = append(ends, len(data))
	}
	for n := max(from, 1); n <= len(ends) && n < from+maxSyntaxSearch; n++ {
		var node yaml.Node
		err := yaml.Unmarshal(data[:ends[n-1]], &node)
		if err == nil {
			continue
		}
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil && m[2] == msg {
			return n
		}
	}
	return 0
}

func (d *decoder) profile(root *yaml.Node, p *Profile) {
	if root.Kind != yaml.MappingNode {
		d.errorf(root, "", "a topic profile is a mapping of keys (name, description, rules, …), got %s", kindName(root))
		return
	}
	var dict, stop []string
	var dictFiles, stopFiles []fileRef
	d.mapping("", root, profileKeys, func(key, path string, k, v *yaml.Node) {
		switch key {
		case "name":
			p.Name, _ = d.str(path, v)
			p.Name = strings.TrimSpace(p.Name)
		case "language":
			p.Language = d.language(path, v)
		case "description":
			p.Description, _ = d.str(path, v)
			p.Description = strings.TrimSpace(p.Description)
		case "keywords":
			p.Keywords = d.keywords(path, v)
		case "examples":
			p.Examples = d.examples(path, v)
		case "dictionary":
			dict = d.terms(path, v)
		case "dictionary_files":
			dictFiles = d.fileRefs(path, v)
		case "stopwords":
			stop = d.terms(path, v)
		case "stopword_files":
			stopFiles = d.fileRefs(path, v)
		case "link_stopwords":
			p.LinkStopwords = slicesx.Unique(d.terms(path, v))
		case "ad_hosts":
			p.AdHosts = d.adHosts(path, v)
		case "synonyms":
			d.synonyms(path, v, p.Synonyms)
		case "rules":
			p.Rules = d.rules(path, v)
		case "thresholds":
			d.thresholds(path, v, &p.Thresholds)
		case "hosts":
			p.Hosts = d.hosts(path, v)
		case "extract":
			p.Extract = d.extract(path, v)
		}
	})
	for _, f := range dictFiles {
		dict = append(dict, d.termFile(f)...)
	}
	for _, f := range stopFiles {
		stop = append(stop, d.termFile(f)...)
	}
	p.Dictionary, p.Stopwords = slicesx.Unique(dict), slicesx.Unique(stop)
	if p.Name == "" {
		base := filepath.Base(d.file)
		p.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
}

var languageTag = regexp.MustCompile(`^[a-z]{2,3}(-[a-z0-9]{2,8})*$`)

func (d *decoder) language(path string, v *yaml.Node) string {
	s, ok := d.str(path, v)
	if !ok {
		return ""
	}
	s = strings.ToLower(strings.TrimSpace(s))
	if s != "" && !languageTag.MatchString(s) {
		d.errorf(resolve(v), path, "want a language code such as zh or en, got %q", s)
		return ""
	}
	return s
}

func (d *decoder) keywords(path string, v *yaml.Node) []Keyword {
	var out []Keyword
	seen := map[string]bool{}
	addKW := func(kp string, k *yaml.Node, term string, w float64) {
		if seen[term] {
			d.errorf(k, kp, "keyword %q given twice", term)
			return
		}
		seen[term] = true
		out = append(out, Keyword{Term: term, Weight: w})
	}
	n := resolve(v)
	if n != nil && n.Kind == yaml.SequenceNode {
		// A list: plain terms weigh 1; {term: weight} items carry their own.
		d.sequence(path, n, false, func(ip string, item *yaml.Node) {
			if item.Kind == yaml.MappingNode {
				d.mapping(ip, item, nil, func(key, kp string, k, wv *yaml.Node) {
					if w, ok := d.weight(kp, wv, true); ok && key != "" {
						addKW(kp, k, key, w)
					}
				})
				return
			}
			if t, ok := d.term(ip, item); ok {
				addKW(ip, item, t, 1)
			}
		})
		return out
	}
	d.mapping(path, v, nil, func(key, kp string, k, wv *yaml.Node) {
		if key == "" {
			d.errorf(k, kp, "empty term")
			return
		}
		if w, ok := d.weight(kp, wv, true); ok {
			addKW(kp, k, key, w)
		}
	})
	return out
}

func (d *decoder) synonyms(path string, v *yaml.Node, into map[string]float64) {
	d.mapping(path, v, nil, func(key, kp string, k, tv *yaml.Node) {
		if key == "" {
			d.errorf(k, kp, "empty term")
			return
		}
		f, ok := d.number(kp, tv)
		if !ok {
			return
		}
		if f <= 0 || f > 1 {
			d.errorf(resolve(tv), kp, "similarity Θ must be in (0,1] (1.0 synonym, 0.5–1.0 near-synonym), got %s", resolve(tv).Value)
			return
		}
		into[key] = f
	})
}

var thresholdKeys = []string{"page", "link"}

func (d *decoder) thresholds(path string, v *yaml.Node, t *Thresholds) {
	d.mapping(path, v, thresholdKeys, func(key, kp string, _, n *yaml.Node) {
		f, ok := d.unit(kp, n)
		if !ok {
			return
		}
		switch key {
		case "page":
			t.Page = f
		case "link":
			t.Link = f
		}
	})
}
