package segmenter

import (
	"testing"
	"time"
)

// TestOpeningDateLine: a line of only a date among the content's first
// lines is its dateline; a date in a sentence or further down is not.
func TestOpeningDateLine(t *testing.T) {
	for _, c := range []struct {
		content, want string
	}{
		{"调查研究报告\n\n北京市妇女儿童工作委员会课题组\n\n2003年5月\n\n为了贯彻落实……", "2003-05"},
		{"By Nathan Willis\nMarch 25, 2015\n\nThe Arduino has been …", "2015-03-25"},
		{"Title\n\nOn 25 March 2015 the board met.", ""}, // a date inside a sentence
		{"一\n\n二\n\n三\n\n四\n\n2003年5月", ""},              // too far down
		{"2017", ""}, // a bare year is no dateline
	} {
		got := ""
		if d, ok := openingDateLine(c.content, time.UTC); ok {
			got = d.String()
		}
		if got != c.want {
			t.Errorf("openingDateLine(%q) = %q, want %q", c.content, got, c.want)
		}
	}
}

// TestNotAuthors: the site's own name, a label of its host, the source
// outlet and the wire agencies are not authors; people are, a person
// given as the source included.
func TestNotAuthors(t *testing.T) {
	h := &head{meta: map[string]string{"og:site_name": "BBC News"}}
	not := notAuthors(h, "https://www.folha.uol.com.br/mundo/x.shtml", "东方网")
	for v, want := range map[string]bool{
		"BBC News": true, "bbc  news": true, "Folha": true, "东方网": true, "AFP": true,
		"Jane Doe": false, "王建宏": false, "uol": false,
	} {
		if got := not(v); got != want {
			t.Errorf("not(%q) = %v, want %v", v, got, want)
		}
	}
	if notAuthors(h, "", "尹娟")("尹娟") {
		t.Error("a person given as the source was taken for an outlet")
	}
}
