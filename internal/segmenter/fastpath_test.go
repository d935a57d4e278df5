package segmenter

// The fast paths of the segmenter (string joins of links, white space
// collapsing, link contexts, stop-word lookup) are held to their plain
// definitions here.

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/urlx"
)

// TestFastJoinAgrees: the string joins of resolver.join give what the
// WHATWG resolution gives, or decline.
func TestFastJoinAgrees(t *testing.T) {
	bases := []string{
		"http://www.example.cn/news/2017/0401/a.html", "https://example.com/", "http://example.com",
		"http://example.com/a/b/?x=1#f", "http://Example.COM:80/a/../b/c.html?q", "https://例子.中国/目录/页.html",
		"http://example.com/a%2fb/c", "http://example.com/dir/",
	}
	refs := []string{
		"b.html", "/x/y.html", "?page=2", "c/d/e.html?x=1&y=2#frag", "/", "a:b", "./c", "../c", "..",
		".hidden/x", "a/./b", "a/../b", "//other.example/x", "http://other.example/A", "HTTP://Other.Example/",
		"https://x.example:443/p", "x y", "a\\b", "%7euser", "%E6%A3%AE", "index.php?id=3&amp=1", "a..b/c.",
		"mailto:x", "q?a=:", "p:8080/x", "/a:b", "~user/", "a;b=c", "@x", "?", "/?", "中文.html",
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "/", ".", "..", "?", "#", ":", "%2", "%41", "-", "~", "=", "&", " ", "\\", "é", "x"}
	for range 3000 {
		var sb strings.Builder
		for n := rng.Intn(8); n >= 0; n-- {
			sb.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		refs = append(refs, sb.String())
	}
	for _, b := range bases {
		r := newResolver(b, "", urlx.Resolve, true)
		for _, ref := range refs {
			if ref == "" || strings.HasPrefix(ref, "#") {
				continue
			}
			got, ok := r.join(ref)
			if !ok {
				continue
			}
			want, err := urlx.Resolve(r.base, ref)
			if err != nil || got != want {
				t.Errorf("join(%q, %q) = %q, WHATWG gives %q (%v)", r.base, ref, got, want, err)
			}
		}
	}
}

func TestOneLine(t *testing.T) {
	for _, s := range []string{"a b", " a b", "a  b", "a\nb", "a b ", "森林\u3000抚育", "x\u00a0y", "。、，", "\tq", "", " "} {
		if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestCollapseSpaceFastPath(t *testing.T) {
	for _, s := range []string{"a b", " a ", "a  b", "a\nb", "森林\u3000抚育", "x\u00a0y", "\u200bz", "\ufeffz", "\x7fq", "。、", "", " ", "ab "} {
		if singleSpaced(s) {
			// the slow path must agree
			var sb strings.Builder
			space, wrote := false, false
			for _, r := range s {
				if isSpace(r) {
					space = true
					continue
				}
				if space {
					sb.WriteByte(' ')
					space = false
				}
				sb.WriteRune(r)
				wrote = true
			}
			if space {
				sb.WriteByte(' ')
			}
			if !wrote && space {
				continue
			}
			if sb.String() != s {
				t.Errorf("singleSpaced(%q) but collapsing gives %q", s, sb.String())
			}
		}
	}
}

// TestCollapseAndOneLineAgree holds the fast text helpers to their plain
// definitions on random text.
func TestCollapseAndOneLineAgree(t *testing.T) {
	slowCollapse := func(s string) string {
		var sb strings.Builder
		space, wrote := false, false
		for _, r := range s {
			if isSpace(r) {
				space = true
				continue
			}
			if space {
				sb.WriteByte(' ')
				space = false
			}
			sb.WriteRune(r)
			wrote = true
		}
		if space && wrote {
			sb.WriteByte(' ')
		}
		if !wrote {
			if space {
				return " "
			}
			return ""
		}
		return sb.String()
	}
	parts := []string{"a", "森", " ", "  ", "\n", "\t", "\u3000", "\u00a0", "\u200b", "\ufeff", "。", "x y", "\u2028", "é", "䀀", "鿿", "ꀀ", "한", "😀",
		"「", "\u303f", "ぁ", "\u3001"}
	rng := rand.New(rand.NewSource(2))
	for range 5000 {
		var sb strings.Builder
		for n := rng.Intn(10); n >= 0; n-- {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		s := sb.String()
		if got, want := collapseSpace(s), slowCollapse(s); got != want {
			t.Fatalf("collapseSpace(%q) = %q, want %q", s, got, want)
		}
		if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestSpaceAtThreeByteRunes: the three-byte runes spaceAt reads without
// decoding (U+3000–U+CFFF) are white space exactly when isSpace says so.
func TestSpaceAtThreeByteRunes(t *testing.T) {
	for r := rune(0x3000); r <= 0xCFFF; r++ {
		sp, size := spaceAt(string(r), 0)
		if sp != isSpace(r) || size != 3 {
			t.Fatalf("spaceAt(%U) = %v, %d; isSpace says %v", r, sp, size, isSpace(r))
		}
		if singleSpaced("a"+string(r)+"b") == isSpace(r) {
			t.Fatalf("singleSpaced(a%cb) = %v, isSpace(%U) = %v", r, !isSpace(r), r, isSpace(r))
		}
	}
}

// TestLowerHead: lowerHead is the head of strings.ToLower, on random text
// of runes that shrink, keep or grow when lower-cased (K, İ, Ω), long
// ones, Chinese and bytes that are no UTF-8.
func TestLowerHead(t *testing.T) {
	parts := []string{"A", "b", "\u212a", "\u0130", "\u2126", "森", "😀", "\U00010400", "\x80", "\xe4\xb8", " ", "Related"}
	check := func(s string, n int) {
		want := strings.ToLower(s)
		want = want[:min(len(want), n)]
		if got := lowerHead(s, n); got != want {
			t.Fatalf("lowerHead(%q, %d) = %q, want %q", s, n, got, want)
		}
	}
	// Runs of the rune that shrinks most, then a long one to cut.
	for k := range 40 {
		for n := range 25 {
			check(strings.Repeat("\u212a", k)+"😀😀", n)
		}
	}
	rng := rand.New(rand.NewSource(9))
	for range 20000 {
		var sb strings.Builder
		for k := rng.Intn(40); k >= 0; k-- {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		check(sb.String(), rng.Intn(20))
	}
}

// TestIsStopAgrees holds the indexed stop-word lookup to its definition:
// the anchor contains a stop word and is at most 4 runes longer.
func TestIsStopAgrees(t *testing.T) {
	lw := newLinkWords([]string{"林业要闻"}, nil)
	slow := func(anchor string) bool {
		a := strings.ToLower(strings.TrimSpace(anchor))
		n := len([]rune(a))
		for _, w := range lw.stop {
			if strings.Contains(a, w) && n <= len([]rune(w))+4 {
				return true
			}
		}
		return false
	}
	anchors := []string{"首页", "返回首页", "网站首页 >>", "Home", "HOME PAGE", "Read more »", "浙江推进森林抚育经营",
		"more", "Sign in to comment", "林业要闻", "更多林业要闻", "下一页", "privacy", "Our privacy policy here", "", " ",
		"联系我们 | 关于我们", "next", "contextual", "skip to content now"}
	rng := rand.New(rand.NewSource(3))
	words := []string{"首", "页", "更多", "more", " ", "x", "新闻", "log", "in", "分享", "到", "Privacy", "»"}
	for range 2000 {
		var sb strings.Builder
		for n := rng.Intn(5); n >= 0; n-- {
			sb.WriteString(words[rng.Intn(len(words))])
		}
		anchors = append(anchors, sb.String())
	}
	for _, a := range anchors {
		if got, want := lw.isStop(a), slow(a); got != want {
			t.Errorf("isStop(%q) = %v, want %v", a, got, want)
		}
	}
}

// TestCountTextFastPath: the ASCII and Chinese fast paths of countText
// count what decoding every rune counts.
func TestCountTextFastPath(t *testing.T) {
	plain := func(s string) (chars, commas, cjk int) {
		for _, r := range s {
			if isSpace(r) {
				continue
			}
			chars++
			if isCJK(r) {
				cjk++
			}
			if strings.ContainsRune(",，、。;；．", r) {
				commas++
			}
		}
		return chars, commas, cjk
	}
	rng := rand.New(rand.NewSource(2))
	alphabet := []string{"a", " ", "\t", "\n", ",", ";", "森", "林", "䀀", "\u4dff", "鿿", "ꀀ", "。", "、", "，",
		"\u3000", "\u00a0", "\u200b", "\ufeff", "é", "\x7f", "\x1c", "\xe4\xb8", "\xff", "한", "カ", "😀"}
	for range 5000 {
		var sb strings.Builder
		for n := rng.Intn(12); n >= 0; n-- {
			sb.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		s := sb.String()
		c1, m1, k1 := countText(s)
		c2, m2, k2 := plain(s)
		if c1 != c2 || m1 != m2 || k1 != k2 {
			t.Fatalf("countText(%q) = %d, %d, %d; decoding every rune gives %d, %d, %d", s, c1, m1, k1, c2, m2, k2)
		}
	}
}

// TestTrimSpaceFastPath: trimSpace is strings.TrimSpace.
func TestTrimSpaceFastPath(t *testing.T) {
	parts := []string{"a", " ", "  ", "\t", "森", "。", "\u3000", "\u00a0", "\u2028", "é", "\xe4", "\x80", "鿿", "ꀀ", "한", "😀", "\x1c"}
	rng := rand.New(rand.NewSource(3))
	for range 20000 {
		var sb strings.Builder
		for n := rng.Intn(6); n >= 0; n-- {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		s := sb.String()
		if got, want := trimSpace(s), strings.TrimSpace(s); got != want {
			t.Fatalf("trimSpace(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestHasPrefixFold: hasPrefixFold is HasPrefix of the lower-cased string
// for the skipped schemes.
func TestHasPrefixFold(t *testing.T) {
	parts := []string{"j", "J", "a", "v", "A", "s", "S", "cript", "CRIPT", ":", "mailto", "MAILTO", "tel", "TeL",
		"İ", "\u212a", "ſ", "é", " ", "x"}
	rng := rand.New(rand.NewSource(4))
	for range 20000 {
		var sb strings.Builder
		for n := rng.Intn(6); n >= 0; n-- {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		s := sb.String()
		for _, p := range skippedSchemes {
			if got, want := hasPrefixFold(s, p), strings.HasPrefix(strings.ToLower(s), p); got != want {
				t.Fatalf("hasPrefixFold(%q, %q) = %v, want %v", s, p, got, want)
			}
		}
	}
}
