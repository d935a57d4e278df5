package sitemap

import (
	"fmt"
	"strings"
	"testing"
)

// TestRobotsSitemaps pins the Sitemap: lines read from robots.txt on the
// cases where github.com/temoto/robotstxt's Sitemaps field (used by the
// fetcher for the rules) answers differently: a bad rule line elsewhere
// in the file makes it drop every sitemap, an empty value or a space
// before the colon gives a junk value, and a space cuts the URL.
func TestRobotsSitemaps(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"comment and case", "User-agent: *\nDisallow: /private\nSITEMAP: http://h/i.xml.gz # the index\n", []string{"http://h/i.xml.gz"}},
		{"spacing", "Sitemap: http://a/s.xml\nsitemap:http://a/t.xml\n  Sitemap :  http://a/u.xml  \n", []string{"http://a/s.xml", "http://a/t.xml", "http://a/u.xml"}},
		{"rule before user-agent", "Disallow: /x\nSitemap: http://a/s.xml\n", []string{"http://a/s.xml"}},
		{"bad crawl-delay", "User-agent: *\nCrawl-delay: abc\nSitemap: http://a/s.xml\n", []string{"http://a/s.xml"}},
		{"empty value", "Sitemap:\nSitemap: /rel.xml\n", []string{"/rel.xml"}},
		{"space in URL", "Sitemap: http://a/s t.xml\n", []string{"http://a/s t.xml"}},
		{"commented out", "# Sitemap: http://a/c.xml\nSitemap: http://a/s.xml\n", []string{"http://a/s.xml"}},
		{"CRLF", "Sitemap: http://a/s.xml\r\nSitemap: http://a/t.xml\r\n", []string{"http://a/s.xml", "http://a/t.xml"}},
		{"other key", "Site-map: http://a/s.xml\n", nil},
		{"empty file", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RobotsSitemaps(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Errorf("RobotsSitemaps(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
