package urlx

import "testing"

func TestAbstractURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://host.example/path/file?a=1&b=2#x", "/path/file?a&b"},
		{"http://host.example/path/file?b=2&a=1", "/path/file?a&b"},
		{"http://host.example/list.php?page=3&cat=7&page=4", "/list.php?cat&page"},
		{"http://host.example/", "/"},
		{"http://host.example", "/"},
		{"http://host.example/a/../b/c.html?", "/b/c.html"},
		{"http://host.example/s?q", "/s?q"},
		{"http://host.example/s?=v&&", "/s"},
		{"http://host.example/book/9787300?id=1", "/book/9787300?id"},
		{"HTTP://Host.Example:80/A%2fB?x=1", "/A%2FB?x"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := AbstractURL(tt.in)
			if err != nil || got != tt.want {
				t.Fatalf("AbstractURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
	if _, err := AbstractURL("mailto:x@y.example"); err == nil {
		t.Fatal("AbstractURL(mailto:) succeeded, want an error")
	}
}
