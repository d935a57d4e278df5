package urlx

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// slowNormalize is NormalizeWith without the fast path.
func slowNormalize(raw string, o Options) (string, error) {
	u, err := parse(raw)
	if err != nil {
		return "", err
	}
	return format(u, o)
}

// fastSamples are URLs near the edge of what the fast path accepts.
var fastSamples = []string{
	"http://a.example/", "https://a.example", "http://a.example?x=1", "http://a.example#f",
	"https://www.forestry.gov.cn/main/72/20170401/101.html?id=3&page=2#top",
	"http://a.example:8080/x", "http://a.example:80/x", "https://a.example:443/", "https://a.example:80/",
	"http://a.example:0/", "http://a.example:65535/", "http://a.example:65536/", "http://a.example:08/",
	"http://a.example:/", "http://A.example/", "HTTP://a.example/", "http://a.example./",
	"http://a..example/", "http://.example/", "http://1.2.3.4/", "http://a.0x10/", "http://a.123/",
	"http://xn--fiqs8s.cn/", "http://xn--zz.example/", "http://a_b.example/", "http://-a.example/",
	"http://u@a.example/", "http://u:p@a.example/", "http://a.example/./b", "http://a.example/../b",
	"http://a.example/b/..", "http://a.example/b/.", "http://a.example/.b/c..", "http://a.example/%2e/",
	"http://a.example/%2E%2E/", "http://a.example/%2F", "http://a.example/%2f", "http://a.example/%41",
	"http://a.example/%E4%B8%AD", "http://a.example/%e4", "http://a.example/%", "http://a.example/%4",
	"http://a.example/%zz", "http://a.example/a b", "http://a.example/a\tb", "http://a.example/a\\b",
	"http://a.example/a|b", "http://a.example/a^b", "http://a.example/a`b", "http://a.example/{}",
	"http://a.example/\"", "http://a.example/<>", "http://a.example/'", "http://a.example/?'",
	"http://a.example/?a=1&b='2'", "http://a.example/?", "http://a.example/?#", "http://a.example/??",
	"http://a.example/?a?b", "http://a.example/?a=%2F&b=%e4", "http://a.example/;jsessionid=1",
	"http://a.example/@:!$&()*+,;=~_-.", "http://a.example/中", "http://a.example/#a b",
	"http://a.example/#\x7f", "http://a.example//x//", "http://a.example/x?y#z#w", " http://a.example/",
	"http://a.example/\n", "https://a.example/b?b=2&a=1&&c", "http://a-.example/", "http://a.example:8080?q",
}

func TestFastPathAgrees(t *testing.T) {
	inputs := append([]string(nil), fastSamples...)
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "aZ09-._~!$&'()*+,;=:@/?#%2eE4F\\ \t|^`{}<>\"x"
	for i := 0; i < 20000; i++ {
		base := fastSamples[rng.IntN(len(fastSamples))]
		b := []byte(base)
		for k := rng.IntN(4); k >= 0; k-- {
			pos := rng.IntN(len(b) + 1)
			b = append(b[:pos], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[pos:]...)...)
		}
		inputs = append(inputs, string(b))
	}
	accepted := 0
	for _, in := range inputs {
		for _, o := range []Options{{}, {SortQuery: true}} {
			checkFast(t, in, o)
		}
		if _, ok := fastNormalize(in, Options{}); ok {
			accepted++
		}
	}
	if accepted < len(inputs)/40 {
		t.Fatalf("fast path took only %d of %d inputs", accepted, len(inputs))
	}
}

func checkFast(t *testing.T, in string, o Options) {
	t.Helper()
	fast, ok := fastNormalize(in, o)
	if !ok {
		return
	}
	slow, err := slowNormalize(in, o)
	if err != nil || slow != fast {
		t.Fatalf("fast path on %q (sort=%v) = %q; slow path = %q, %v", in, o.SortQuery, fast, slow, err)
	}
}

func FuzzFastPath(f *testing.F) {
	for _, s := range fastSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !strings.HasPrefix(in, "http") {
			return
		}
		checkFast(t, in, Options{})
		checkFast(t, in, Options{SortQuery: true})
		if h, ok := fastHostOf(in); ok {
			u, err := parse(in)
			if err != nil || strings.TrimSuffix(u.Hostname(), ".") != h {
				t.Fatalf("fastHostOf(%q) = %q; parser: %v", in, h, err)
			}
		}
	})
}
