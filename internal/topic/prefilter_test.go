package topic

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestPrefilterLiterals(t *testing.T) {
	cases := []struct {
		re   string
		want []string // nil: no prefilter
	}{
		{`加入购物车|立即购买`, []string{"加入购物车", "立即购买"}},
		{`\b97[89]-[0-9]{1,5}`, []string{"978-", "979-"}},
		{`(市场价|现价|现卖价)\s*[:：]`, []string{"市场价", "现价", "现卖价"}},
		{`(?i)\bisbn\s*:`, []string{"ISBN"}},
		{`[¥￥]\s*[0-9]+`, []string{"¥", "￥"}},
		{`(著|编著)[)）]?`, []string{"著"}},
		{`a*`, nil},
		{`(ab|c*)x?`, nil},
		{`x+yz`, []string{"yz"}},
		{`[a-z]+`, nil},
		{`\p{Han}{2,4}`, nil},
	}
	for _, c := range cases {
		p := newPrefilter(regexp.MustCompile(c.re))
		var got []string
		for _, l := range p {
			got = append(got, l.s)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("prefilter(%s) = %q, want %q", c.re, got, c.want)
		}
	}
}

// TestPrefilterNeverChangesResults compares filtered and unfiltered
// matching on every pattern of the example profiles and on case-folding
// traps, over every test page and tricky texts.
func TestPrefilterNeverChangesResults(t *testing.T) {
	var res []*regexp.Regexp
	for _, name := range []string{"bookstores.yaml", "forestry.yaml", "travel.yaml"} {
		p := loadExample(t, name)
		for _, r := range p.Rules {
			res = slices.Concat(res, r.Any, r.All, r.Not)
		}
	}
	for _, s := range []string{`(?i)s`, `(?i)kelvin`, `(?i)straße`, `(?i)ΣΑΣ`, `(?i)price|cost`, `x?y?`, `(?i)[ks]ey`} {
		res = append(res, regexp.MustCompile(s))
	}
	texts := []string{"", "ſ", "\u212aELVIN", "STRASSE straße STRAßE", "σας", "PRICE: $5", "kEy ſey", "\xff\xfe broken ISBN 978-7-5063-6543-7"}
	pages, _ := filepath.Glob(filepath.Join("testdata", "pages", "*.txt"))
	for _, name := range pages {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
		for line := range strings.Lines(string(data)) {
			texts = append(texts, line)
		}
	}
	for _, re := range res {
		f := newPrefilter(re)
		for _, text := range texts {
			want := re.MatchString(text)
			if got := matches(re, []prefilter{f}, 0, text, &foldedText{}); got != want {
				t.Errorf("%s on %q: filtered %v, plain %v (filter %v)", re, text, got, want, f)
			}
		}
	}
}
