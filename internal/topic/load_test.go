package topic

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	src := `
name: forest
language: ZH
description: |
  森林经营 造林
keywords: {造林: 2, 宜林地: 1.5}
examples:
  positive: [https://www.forestry.gov.cn/a.html, positive.txt, seeds.txt]
  negative: [{text: 股票 行情}]
dictionary: [小班, 宜林地]
dictionary_files: [test.dict]
stopwords: 的
link_stopwords: [首页, 下一页, 首页]
ad_hosts: [DoubleClick.net, "*.ads.example.com"]
synonyms: {森林: 1.0, 树木: 0.6}
rules:
  - {name: a, any: ['造林'], weight: 3}
  - {name: b, all: ['抚育', '间伐'], not: '股票'}
thresholds: {page: 0.5}
hosts:
  - {host: WWW.Forestry.gov.cn, rank: national, name: 国家林业和草原局}
  - {host: "*.zj.gov.cn", rank: province}
  - 127.0.0.1:8080
extract:
  - {site: forestry.gov.cn, title: h1, published: "meta[name=pubdate]@content", content: "re:(?s)<div id=\"c\">(.*?)</div>", fields: {unit: .unit}}
  - {site: "*", title: title}
`
	p, err := Parse([]byte(src), filepath.Join("testdata", "forest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"name", p.Name, "forest"},
		{"language", p.Language, "zh"},
		{"description", p.Description, "森林经营 造林"},
		{"keywords", p.Keywords, []Keyword{{"造林", 2}, {"宜林地", 1.5}}},
		{"dictionary", p.Dictionary, []string{"小班", "宜林地", "迹地拨交", "Pinus massoniana"}},
		{"stopwords", p.Stopwords, []string{"的"}},
		{"link_stopwords", p.LinkStopwords, []string{"首页", "下一页"}},
		{"ad_hosts", p.AdHosts, []string{"doubleclick.net", "ads.example.com"}},
		{"positive", p.Examples.Positive, []string{"https://www.forestry.gov.cn/a.html", "造林 模式 宜林地 抚育 间伐", "https://www.forestry.gov.cn/", "https://www.caf.ac.cn/"}},
		{"negative", p.Examples.Negative, []string{"股票 行情"}},
		{"synonym", p.Synonyms["树木"], 0.6},
		{"thresholds", p.Thresholds, Thresholds{Page: 0.5, Link: DefaultLinkThreshold}},
		{"hosts", p.Hosts, []Host{{"www.forestry.gov.cn", RankNational, "国家林业和草原局"}, {"*.zj.gov.cn", RankProvince, ""}, {"127.0.0.1:8080", RankOther, ""}}},
		{"rule weight a", p.Rules[0].Weight, 0.75},
		{"rule weight b", p.Rules[1].Weight, 0.25},
		{"extract attr", p.Extract[0].Published, "meta[name=pubdate]@content"},
		{"extract field", p.Extract[0].Fields["unit"], ".unit"},
	}
	for _, c := range checks {
		if !equal(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func equal(a, b any) bool {
	switch x := a.(type) {
	case []string:
		return slices.Equal(x, b.([]string))
	case []Keyword:
		return slices.Equal(x, b.([]Keyword))
	case []Host:
		return slices.Equal(x, b.([]Host))
	case float64:
		return math.Abs(x-b.(float64)) < 1e-12
	}
	return a == b
}

func TestParseDefaults(t *testing.T) {
	p, err := Parse([]byte("description: x\n"), "dir/books.yml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "books" || p.Thresholds != (Thresholds{0.7, 0.2}) || len(p.Rules) != 0 {
		t.Errorf("defaults: name %q thresholds %+v rules %d", p.Name, p.Thresholds, len(p.Rules))
	}
	if s, m := p.RuleScore("anything"); s != 0 || m != nil {
		t.Errorf("RuleScore without rules = %v %v", s, m)
	}
}

// TestParseErrors checks that every kind of problem is refused with a
// message naming the file, the line and the key.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name string
		src  string
		line int
		key  string
		msg  string // a further fragment the message must hold
	}{
		{"unknown key suggestion", "name: x\nthreshold: {page: 0.5}\n", 2, "threshold", `did you mean "thresholds"`},
		{"unknown key hyphen", "link-stopwords: [首页]\n", 1, "link-stopwords", `did you mean "link_stopwords"`},
		{"unknown key far", "colour: red\n", 1, "colour", "known keys: name"},
		{"misplaced key", "page: 0.8\n", 1, "page", "belongs under thresholds"},
		{"rule name not a string", "rules:\n  - {name: [a], any: x}\n", 2, "rules[0].name", "want a string, got a list"},
		{"unknown rule key", "rules:\n  - name: p\n    anyy: [x]\n", 3, "rules[0].anyy", `did you mean "any"`},
		{"unknown threshold key", "thresholds:\n  pages: 0.5\n", 2, "thresholds.pages", `did you mean "page"`},
		{"duplicate key", "name: a\nname: b\n", 2, "name", "duplicate key (first at line 1)"},
		{"bad regex", "rules:\n  - name: price\n    any: ['(市场价']\n", 3, "rules[0].any[0]", "bad regex in rule \"price\": error parsing regexp: missing closing )"},
		{"bad regex in all", "rules:\n  - name: isbn\n    all:\n      - ISBN\n      - '[0-9'\n", 5, "rules[0].all[1]", "missing closing ]"},
		{"bad regex in not", "rules:\n  - name: a\n    any: x\n    not: '*x'\n", 4, "rules[0].not", "missing argument to repetition operator"},
		{"negative rule weight", "rules:\n  - {name: a, any: [x], weight: -0.2}\n", 2, "rules[0].weight", "weight must be 0 or more, got -0.2"},
		{"non-numeric rule weight", "rules:\n  - name: a\n    any: [x]\n    weight: high\n", 4, "rules[0].weight", `want a number, got the string "high"`},
		{"quoted rule weight", "rules:\n  - {name: a, any: [x], weight: '0.3'}\n", 2, "rules[0].weight", `want a number, got the string "0.3"`},
		{"zero rule weights", "rules:\n  - {name: a, any: [x], weight: 0}\n", 2, "rules", "sum to 0"},
		{"rule without name", "rules:\n  - any: [x]\n", 2, "rules[0].name", "no name"},
		{"rule name twice", "rules:\n  - {name: a, any: [x]}\n  - {name: a, any: [y]}\n", 3, "rules[1].name", "used twice (first at line 2)"},
		{"rule only not", "rules:\n  - {name: a, not: [x]}\n", 2, "rules[0]", "no any: or all:"},
		{"rule not a mapping", "rules:\n  - price\n", 2, "rules[0]", "want a rule"},
		{"rules not a list", "rules: {name: a}\n", 1, "rules", "want a list, got a mapping"},
		{"empty pattern", "rules:\n  - {name: a, any: ['']}\n", 2, "rules[0].any[0]", "empty pattern"},
		{"negative keyword weight", "keywords:\n  造林: 2\n  宜林地: -1\n", 3, "keywords.宜林地", "weight must be above 0"},
		{"zero keyword weight", "keywords: {造林: 0}\n", 1, "keywords.造林", "weight must be above 0"},
		{"non-numeric keyword weight", "keywords:\n  造林: lots\n", 2, "keywords.造林", "want a number"},
		{"keyword list item weight", "keywords:\n  - 造林\n  - {宜林地: x}\n", 3, "keywords[1].宜林地", "want a number"},
		{"keyword twice", "keywords: [造林, 造林]\n", 1, "keywords[1]", "given twice"},
		{"nan weight", "keywords: {造林: .nan}\n", 1, "keywords.造林", "finite"},
		{"page threshold high", "thresholds:\n  page: 1.5\n", 2, "thresholds.page", "between 0 and 1, got 1.5"},
		{"link threshold negative", "thresholds: {link: -0.1}\n", 1, "thresholds.link", "between 0 and 1"},
		{"threshold type", "thresholds: {page: [1]}\n", 1, "thresholds.page", "want a number, got a list"},
		{"thresholds type", "thresholds: 0.7\n", 1, "thresholds", "want a mapping with keys page, link"},
		{"synonym above 1", "synonyms:\n  旅游: 1.2\n", 2, "synonyms.旅游", "(0,1]"},
		{"synonym zero", "synonyms: {旅游: 0}\n", 1, "synonyms.旅游", "(0,1]"},
		{"bad rank", "hosts:\n  - {host: www.a.cn, rank: provincial}\n", 2, "hosts[0].rank", `did you mean "province"`},
		{"bad rank far", "hosts:\n  - {host: www.a.cn, rank: huge}\n", 2, "hosts[0].rank", "ranks are national, province, city, county, other"},
		{"host is URL", "hosts:\n  - {host: 'https://www.a.cn/', rank: city}\n", 2, "hosts[0].host", "not a URL"},
		{"host missing", "hosts:\n  - {rank: city}\n", 2, "hosts[0].host", "missing host"},
		{"host twice", "hosts:\n  - www.a.cn\n  - {host: WWW.A.CN, rank: city}\n", 3, "hosts[1].host", "listed twice (first at line 2)"},
		{"host bad port", "hosts: ['a.cn:99999']\n", 1, "hosts[0]", "bad port"},
		{"host key typo", "hosts:\n  - {hots: a.cn}\n", 2, "hosts[0].hots", `did you mean "host"`},
		{"ad host URL", "ad_hosts: [http://ads.cn/x]\n", 1, "ad_hosts[0]", "not a URL"},
		{"missing dictionary file", "dictionary_files:\n  - nope.dict\n", 2, "dictionary_files[0]", "missing file nope.dict"},
		{"non-UTF-8 dictionary", "dictionary_files: [latin1.dict]\n", 1, "dictionary_files[0]", "latin1.dict:1: not UTF-8"},
		{"missing stopword file", "stopword_files: [nope.txt]\n", 1, "stopword_files[0]", "missing file"},
		{"missing example file", "examples:\n  positive:\n    - nope.txt\n", 3, "examples.positive[0]", "missing example file nope.txt"},
		{"bad example URL", "examples:\n  negative: ['ftp://x.cn/']\n", 2, "examples.negative[0]", "not http or https"},
		{"example two kinds", "examples:\n  positive:\n    - {url: 'http://a.cn/', text: hi}\n", 3, "examples.positive[0].text", "not several"},
		{"example key typo", "examples: {positiv: [a]}\n", 1, "examples.positiv", `did you mean "positive"`},
		{"dictionary wrong type", "dictionary: {a: 1}\n", 1, "dictionary", "want a list, got a mapping"},
		{"dictionary nested list", "dictionary:\n  - [a]\n", 2, "dictionary[0]", "want a string, got a list"},
		{"dictionary empty term", "dictionary: ['  ']\n", 1, "dictionary[0]", "empty term"},
		{"name is list", "name: [a]\n", 1, "name", "want a string, got a list"},
		{"bad language", "language: Chinese simplified\n", 1, "language", "language code"},
		{"bad css", "extract:\n  - {site: a.cn, title: 'h1[[' }\n", 2, "extract[0].title", "bad CSS selector"},
		{"bad extract regex", "extract:\n  - site: a.cn\n    content: 're:(<div'\n", 3, "extract[0].content", "bad regex"},
		{"bad field selector", "extract:\n  - site: a.cn\n    fields:\n      unit: 'div >'\n", 4, "extract[0].fields.unit", "bad CSS selector"},
		{"extract no site", "extract:\n  - {title: h1}\n", 2, "extract[0].site", "missing site"},
		{"extract no selectors", "extract:\n  - {site: a.cn}\n", 2, "extract[0]", "no selectors"},
		{"extract site twice", "extract:\n  - {site: a.cn, title: h1}\n  - {site: A.cn, title: h2}\n", 3, "extract[1].site", "two extraction rules"},
		{"extract key typo", "extract:\n  - {site: a.cn, tittle: h1}\n", 2, "extract[0].tittle", `did you mean "title"`},
		{"empty example file", "examples:\n  positive: [empty.txt]\n", 2, "examples.positive[0]", "example file empty.txt is empty"},
		{"example url key not a URL", "examples:\n  positive:\n    - {url: www.a.cn}\n", 3, "examples.positive[0].url", "want an absolute http(s) URL"},
		{"bad extract site", "extract:\n  - {site: 'http://a.cn/', title: h1}\n", 2, "extract[0].site", "not a URL"},
		{"extract not a mapping", "extract: [a.cn]\n", 1, "extract[0]", "want {site"},
		{"wildcard in middle", "hosts: ['a.*.cn']\n", 1, "hosts[0]", "leading"},
		{"empty keyword", "keywords: {'': 1}\n", 1, "keywords.", "empty term"},
		{"fields not a mapping", "extract:\n  - {site: a.cn, fields: [h1]}\n", 2, "extract[0].fields", "want a mapping, got a list"},
		{"top level list", "- a\n- b\n", 1, "", "mapping of keys"},
		{"yaml syntax", "name: a\nrules: [\n", 2, "", "YAML syntax"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src), filepath.Join("testdata", "p.yaml"))
			if err == nil {
				t.Fatal("accepted")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not a *topic.Error", err)
			}
			msg := err.Error()
			loc := filepath.Join("testdata", "p.yaml") + ":" + strconv.Itoa(c.line) + ":"
			if !strings.HasPrefix(msg, loc) {
				t.Errorf("message %q does not start with %q", msg, loc)
			}
			if c.key != "" && !strings.Contains(msg, ": "+c.key+": ") {
				t.Errorf("message %q does not name key %q", msg, c.key)
			}
			if !strings.Contains(msg, c.msg) {
				t.Errorf("message %q does not contain %q", msg, c.msg)
			}
			if e.Line != c.line || e.Key != c.key {
				t.Errorf("Error{Line: %d, Key: %q}, want %d, %q", e.Line, e.Key, c.line, c.key)
			}
		})
	}
}

func TestParseReportsAllErrors(t *testing.T) {
	src := "name: a\nthreshold: 1\nrules:\n  - {name: p, any: ['(']}\nkeywords: {x: -1}\n"
	_, err := Parse([]byte(src), "all.yaml")
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"all.yaml:2:1: threshold:", "all.yaml:4:", "rules[0].any[0]", "all.yaml:5:", "keywords.x"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("joined error lacks %q:\n%v", want, err)
		}
	}
}

func TestDictionaryFileFormats(t *testing.T) {
	p, err := Parse([]byte("dictionary_files: [gse.dict]\n"), filepath.Join("testdata", "p.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"宜林地", "迹地拨交", "林相图", "Pinus massoniana", "3 号 林班"}
	if !slices.Equal(p.Dictionary, want) {
		t.Errorf("Dictionary = %q, want %q", p.Dictionary, want)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none.yaml"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "none.yaml") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestEmptyProfile(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "~\n"} {
		if _, err := Parse([]byte(src), "e.yaml"); err == nil || !strings.Contains(err.Error(), "e.yaml: empty topic profile") {
			t.Errorf("Parse(%q) = %v", src, err)
		}
	}
}
