package urlx

import "testing"

func TestStripSessionIDs(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no query", "http://a.example/b", "http://a.example/b"},
		{"no session", "http://a.example/b?page=2&cat=x", "http://a.example/b?page=2&cat=x"},
		{"only sid", "http://bbs.a.example/thread-1-1-1.html?sid=b910abf268b14519", "http://bbs.a.example/thread-1-1-1.html"},
		{"sid last", "http://a.example/list.php?cat=x&page=2&sid=58ae", "http://a.example/list.php?cat=x&page=2"},
		{"sid first", "http://a.example/s?sid=58ae&q=%E6%9E%97", "http://a.example/s?q=%E6%9E%97"},
		{"sid middle", "http://a.example/s?a=1&sid=58ae&b=2", "http://a.example/s?a=1&b=2"},
		{"upper case", "http://a.example/x.php?PHPSESSID=abc&id=3", "http://a.example/x.php?id=3"},
		{"asp", "http://a.example/x.asp?ASPSESSIONIDQQGGGNCG=abc", "http://a.example/x.asp"},
		{"jsessionid path param", "http://a.example/b;jsessionid=ABC123?c=1", "http://a.example/b?c=1"},
		{"jsessionid path param only", "http://a.example/b;JSESSIONID=ABC123", "http://a.example/b"},
		{"jsessionid mid path", "http://a.example/b;jsessionid=X/c.html", "http://a.example/b/c.html"},
		{"several", "http://a.example/?sid=1&sessionid=2&x=3&session_id=4", "http://a.example/?x=3"},
		{"name containing sid kept", "http://a.example/?side=left&sidebar=1&osid=2", "http://a.example/?side=left&sidebar=1&osid=2"},
		{"value sid kept", "http://a.example/?q=sid", "http://a.example/?q=sid"},
		{"empty params kept", "http://a.example/?a&&sid=1", "http://a.example/?a&"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StripSessionIDs(tt.in); got != tt.want {
				t.Errorf("StripSessionIDs(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStripSessionIDsNoAlloc(t *testing.T) {
	u := "http://a.example/list.php?cat=x&page=2"
	if n := testing.AllocsPerRun(100, func() { _ = StripSessionIDs(u) }); n != 0 {
		t.Errorf("a URL without session ids costs %v allocations, want 0", n)
	}
}
