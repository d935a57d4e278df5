package urlx

import (
	"errors"
	"slices"
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            error // nil: must succeed
	}{
		{"issue example", "HTTP://Example.COM:80/a/../b#x", "http://example.com/b", nil},
		{"https default port", "https://a.example:443/", "https://a.example/", nil},
		{"http port 443 kept", "http://a.example:443/", "http://a.example:443/", nil},
		{"https port 80 kept", "https://a.example:80/x", "https://a.example:80/x", nil},
		{"non-default port", "http://a.example:8080", "http://a.example:8080/", nil},
		{"empty port", "http://a.example:/x", "http://a.example/x", nil},
		{"empty path gets slash", "http://a.example", "http://a.example/", nil},
		{"dot segments", "http://a.example/b/./c/../../d", "http://a.example/d", nil},
		{"dot segments above root", "http://a.example/../../x", "http://a.example/x", nil},
		{"encoded dot segments", "http://a.example/b/%2e%2E/c", "http://a.example/c", nil},
		{"trailing dot segment", "http://a.example/b/c/..", "http://a.example/b/", nil},
		{"encoded slash stays", "http://a.example/a%2Fb", "http://a.example/a%2Fb", nil},
		{"encoded slash case only", "http://a.example/a%2fb", "http://a.example/a%2Fb", nil},
		{"unreserved decoded", "http://a.example/%7euser/%41%62%2D%5F%2E", "http://a.example/~user/Ab-_.", nil},
		{"percent case", "http://a.example/%e4%b8%ad", "http://a.example/%E4%B8%AD", nil},
		{"bad escape kept", "http://a.example/%zz%4", "http://a.example/%zz%4", nil},
		{"reserved in query kept", "http://a.example/?q=%26%3d%2b", "http://a.example/?q=%26%3D%2B", nil},
		{"plus kept", "http://a.example/?q=a+b", "http://a.example/?q=a+b", nil},
		{"space encoded", "http://a.example/a b?q=c d", "http://a.example/a%20b?q=c%20d", nil},
		{"non-ASCII path", "http://a.example/中文?q=林业", "http://a.example/%E4%B8%AD%E6%96%87?q=%E6%9E%97%E4%B8%9A", nil},
		{"empty query", "http://a.example/b?", "http://a.example/b", nil},
		{"empty query and fragment", "http://a.example/b?#", "http://a.example/b", nil},
		{"fragment removed", "http://a.example/b?c=1#frag", "http://a.example/b?c=1", nil},
		{"hashbang removed", "http://a.example/#!/page", "http://a.example/", nil},
		{"query order kept", "http://a.example/?b=1&a=2", "http://a.example/?b=1&a=2", nil},
		{"empty params kept", "http://a.example/?a&&b=", "http://a.example/?a&&b=", nil},
		{"double slashes kept", "http://a.example//a//b", "http://a.example//a//b", nil},
		{"trailing slash kept", "http://a.example/dir/", "http://a.example/dir/", nil},
		{"case of path kept", "HTTPS://WWW.EXAMPLE.COM/INDEX.HTML", "https://www.example.com/INDEX.HTML", nil},
		{"matrix params kept", "http://a.example/b;jsessionid=X?c", "http://a.example/b;jsessionid=X?c", nil},
		{"IDN to punycode", "http://Bücher.example/", "http://xn--bcher-kva.example/", nil},
		{"Chinese IDN", "http://www.中国.cn/", "http://www.xn--fiqs8s.cn/", nil},
		{"full-width host", "http://ｅｘａｍｐｌｅ.com/", "http://example.com/", nil},
		{"punycode stays", "http://xn--fiqs8s.cn/", "http://xn--fiqs8s.cn/", nil},
		{"trailing dot host", "http://example.com./a", "http://example.com/a", nil},
		{"IPv4", "http://192.168.0.1:80/", "http://192.168.0.1/", nil},
		{"IPv4 hex", "http://0x7f.1/", "http://127.0.0.1/", nil},
		{"IPv6", "http://[2001:DB8:0:0::1]:8080/", "http://[2001:db8::1]:8080/", nil},
		{"userinfo kept", "http://User:P%41ss@a.example/", "http://User:PAss@a.example/", nil},
		{"backslashes", `http:\\a.example\b\c`, "http://a.example/b/c", nil},
		{"surrounding spaces", "  http://a.example/b \n", "http://a.example/b", nil},
		{"tab inside", "http://a.exa\tmple/b", "http://a.example/b", nil},
		{"one slash", "http:/a.example/b", "http://a.example/b", nil},
		{"no slashes", "http:a.example/b", "http://a.example/b", nil},
		{"underscore host", "http://a_b.example/", "http://a_b.example/", nil},

		{"relative", "/path/only", "", ErrNoScheme},
		{"scheme-relative", "//a.example/b", "", ErrNoScheme},
		{"bare host", "example.com", "", ErrNoScheme},
		{"mailto", "mailto:someone@example.com", "", ErrScheme},
		{"javascript", "javascript:void(0)", "", ErrScheme},
		{"ftp", "ftp://a.example/file", "", ErrScheme},
		{"data", "data:text/plain,hi", "", ErrScheme},
		{"empty label", "http://a..example/", "", ErrHost},
		{"leading dot", "http://.example/", "", ErrHost},
		{"space in host", "http://exa mple.com/", "", errAny},
		{"bad IPv4", "http://999.1.1.1/", "", errAny},
		{"bad port", "http://a.example:99999/", "", errAny},
		{"no host", "http:///", "", errAny},
		{"empty", "", "", errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in)
			if tt.err == nil {
				if err != nil || got != tt.want {
					t.Fatalf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
				}
				again, err := Normalize(got)
				if err != nil || again != got {
					t.Fatalf("not idempotent: Normalize(%q) = %q, %v", got, again, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Normalize(%q) = %q, want an error", tt.in, got)
			}
			if tt.err != errAny && !errors.Is(err, tt.err) {
				t.Fatalf("Normalize(%q) error %v, want %v", tt.in, err, tt.err)
			}
		})
	}
}

// errAny stands for "any error" in the tables.
var errAny = errors.New("any error")

func TestNormalizeSortQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://a.example/?b=1&a=2", "http://a.example/?a=2&b=1"},
		{"http://a.example/?b=1&a=2&b=0&a=1", "http://a.example/?a=2&a=1&b=1&b=0"},
		{"http://a.example/?z&&y=%2f", "http://a.example/?y=%2F&z"},
		{"http://a.example/?only", "http://a.example/?only"},
		{"http://a.example/p", "http://a.example/p"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := NormalizeWith(tt.in, Options{SortQuery: true})
			if err != nil || got != tt.want {
				t.Fatalf("NormalizeWith(%q, sort) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	const base = "http://a.example/b/c/d;p?q#f"
	tests := []struct {
		ref, want string
		err       error
	}{
		// RFC 3986 §5.4 examples, normalised.
		{"g", "http://a.example/b/c/g", nil},
		{"./g", "http://a.example/b/c/g", nil},
		{"g/", "http://a.example/b/c/g/", nil},
		{"/g", "http://a.example/g", nil},
		{"//g.example", "http://g.example/", nil},
		{"?y", "http://a.example/b/c/d;p?y", nil},
		{"g?y", "http://a.example/b/c/g?y", nil},
		{"#s", "http://a.example/b/c/d;p?q", nil},
		{"", "http://a.example/b/c/d;p?q", nil},
		{".", "http://a.example/b/c/", nil},
		{"..", "http://a.example/b/", nil},
		{"../..", "http://a.example/", nil},
		{"../../../g", "http://a.example/g", nil},
		{"  ../g\n", "http://a.example/b/g", nil},
		{`..\g`, "http://a.example/b/g", nil},
		{"HTTPS://Other.Example:443/x", "https://other.example/x", nil},
		{"mailto:x@a.example", "", ErrScheme},
		{"javascript:alert(1)", "", ErrScheme},
		{"http://exa mple/", "", errAny},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			got, err := Resolve(base, tt.ref)
			if tt.err == nil {
				if err != nil || got != tt.want {
					t.Fatalf("Resolve(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
				}
				return
			}
			if err == nil || tt.err != errAny && !errors.Is(err, tt.err) {
				t.Fatalf("Resolve(%q) = %q, %v; want error %v", tt.ref, got, err, tt.err)
			}
		})
	}
	if _, err := Resolve("/relative/base", "x"); !errors.Is(err, ErrNoScheme) {
		t.Fatalf("relative base: err = %v, want ErrNoScheme", err)
	}
}

// TestBaseReuse: one parsed Base resolves a run of references as Resolve
// does each on its own; the dot segments and queries of the earlier ones
// do not change the base for the later ones.
func TestBaseReuse(t *testing.T) {
	const base = "http://a.example/b/c/d;p?q#f"
	refs := []string{"../../../g", "..", "g", "?y", "../x/./y?z=1", ".", "", "#s", "/g", "//g.example/h", "g;x?y#s",
		`..\g`, "mailto:x@a.example", "http://exa mple/", "c/d/../../e", "?", "../..", "g"}
	b, err := ParseBase(base)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		for _, ref := range refs {
			got, gotErr := b.Resolve(ref)
			want, wantErr := Resolve(base, ref)
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("round %d: Base.Resolve(%q) = %q, %v; Resolve gives %q, %v", round, ref, got, gotErr, want, wantErr)
			}
		}
		slices.Reverse(refs)
	}
	if _, err := ParseBase("/relative/base"); !errors.Is(err, ErrNoScheme) {
		t.Fatalf("relative base: err = %v, want ErrNoScheme", err)
	}
}

func TestHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"HTTP://WWW.Example.COM:80/a", "www.example.com"},
		{"https://lyj.zj.gov.cn/x", "lyj.zj.gov.cn"},
		{"http://a.example:8080/", "a.example:8080"},
		{"https://a.example:443/", "a.example"},
		{"http://[::1]:3000/", "[::1]:3000"},
		{"http://例子.测试/", "xn--fsqu00a.xn--0zwm56d"},
		{"http://example.com./", "example.com"},
		{"mailto:x@y.example", ""},
		{"not a url", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Host(tt.in); got != tt.want {
				t.Fatalf("Host(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func BenchmarkNormalize(b *testing.B) {
	sets := map[string][]string{
		// Already normal: the fast path.
		"normal": {
			"https://www.forestry.gov.cn/main/72/20170401/101.html?id=3&page=2",
			"http://lyj.zj.gov.cn/art/2017/4/1/art_1275955_6529390.html",
		},
		// Needing work: the WHATWG parser.
		"messy": {
			"HTTP://Example.COM:80/a/../b#x",
			"http://bücher.example/%7euser/中文?q=林业",
		},
	}
	for name, urls := range sets {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := Normalize(urls[i%len(urls)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
