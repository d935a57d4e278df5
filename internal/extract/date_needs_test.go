package extract

import (
	"math/rand"
	"testing"
)

// TestLayoutNeeds: a text in which a layout's regexp finds a match passes
// the layout's quick test, on random text made of years, digits,
// separators, month names, white space (some the regexps' \s does not
// take) and 年.
func TestLayoutNeeds(t *testing.T) {
	texts := []string{"2017-04-01", "2017 /4/1", "2017\t.4.1", "2017\v-4-1", "01/04/2017", "1.4.2017 08:00", "2017年4月1日",
		"2017 年 4 月", "x2017-4-1", "20171-4-1", "1/1/20170", "2017 01/04/2017", "1999 x 2017-4-1", "Apr 1, 2017",
		"1 ſeptember 2017", "SEPT. 2017", "x mar 2017"}
	// Texts follow the shapes of the layouts, each slot filled at random
	// with what fits it or with what does not: number, year, separator,
	// number, separator, number, separator, year, with space between;
	// year, number, separator, number, separator, year; number, month,
	// number, year, month, year.
	year := []string{"2017", "1999", "20", "1917", "2", "x", "", "12017"}
	space := []string{"", "", " ", "  ", "\t", "\n", "\v", "\r", "\f", "&nbsp;"}
	sep := []string{"-", "/", ".", "年", "月", "日", ":", ",", "", "a"}
	num := []string{"4", "12", "1", "31", "123", "", "x"}
	month := []string{"Apr", "april", "APR.", "ſep", "Sept.", "sep", "dec", "Dec", "xmar", "ma", "ju", "J", "", "octo", "noV"}
	rng := rand.New(rand.NewSource(6))
	pick := func(s []string) string { return s[rng.Intn(len(s))] }
	for range 20000 {
		texts = append(texts, pick(num)+pick(space)+pick(year)+pick(space)+pick(sep)+pick(space)+pick(num)+pick(space)+pick(sep)+
			pick(space)+pick(num)+pick(sep)+pick(year)+pick(space)+pick(num),
			pick(year)+pick(space)+pick(num)+pick(sep)+pick(num)+pick(sep)+pick(year)+pick(space)+pick(num),
			pick(num)+pick(space)+pick(month)+pick(space)+pick(num)+pick(sep)+pick(space)+pick(year)+pick(space)+pick(month)+
				pick(space)+pick(year))
	}
	for re, need := range layoutNeeds {
		matched := 0
		for _, s := range texts {
			if re.FindStringSubmatchIndex(s) == nil {
				continue
			}
			matched++
			if !need(s) {
				t.Fatalf("%q matches %s but fails its quick test", s, re)
			}
		}
		if matched < 20 {
			t.Errorf("only %d texts match %s: the test says little", matched, re)
		}
	}
}
