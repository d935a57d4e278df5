package urlx

import (
	"reflect"
	"testing"
)

func TestClassChain(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want []string
	}{
		{"http://a.cn", []string{"/"}},
		{"http://a.cn/", []string{"/"}},
		{"http://a.cn/index.html", []string{"/", "/index*"}},
		{"https://h.org/zh_CN/filters-blur.html", []string{"/", "/zh_CN/", "/zh_CN/filters*", "/zh_CN/filters-blur*"}},
		{"https://h.org/zh_CN/plug-in-gauss.html#top", []string{"/", "/zh_CN/", "/zh_CN/plug*", "/zh_CN/plug-in*", "/zh_CN/plug-in-gauss*"}},
		{"https://h.org/gimp-filter-noise-hurl.html", []string{"/", "/gimp*", "/gimp-filter*", "/gimp-filter-noise*"}},
		{"https://h.org/mod/mod_rewrite.html.en", []string{"/", "/mod/", "/mod/mod*", "/mod/mod_rewrite*"}},
		{"https://h.org/a/--x.html", []string{"/", "/a/", "/a/--x*"}},
		{"http://a.cn/news/2024/05/12345.html", []string{"/", "/news/", "/news/#/", "/news/#/#/", "/news/#/#/#*"}},
		{"http://a.cn/list?page=2&cat=7&page=3", []string{"/", "/list*", "/list*?cat&page"}},
		{"http://a.cn/dir/?q=1", []string{"/", "/dir/", "/dir/?q"}},
		{"http://a.cn/1/2/3/4/5/6/7/8/9/10/x.html", []string{"/", "/#/", "/#/#/", "/#/#/#/", "/#/#/#/#/",
			"/#/#/#/#/#/", "/#/#/#/#/#/#/", "/#/#/#/#/#/#/#/", "/#/#/#/#/#/#/#/#/", "/#/#/#/#/#/#/#/#/x*"}},
	} {
		got, err := ClassChain(tc.url)
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ClassChain(%s) = %q, want %q", tc.url, got, tc.want)
		}
	}
	if _, err := ClassChain("not a url"); err == nil {
		t.Error("ClassChain took a relative URL")
	}
}
