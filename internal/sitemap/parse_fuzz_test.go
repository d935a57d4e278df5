package sitemap

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// FuzzParse: any sitemap body, XML, text or gzip, is read to its end or
// an error without a panic, and under the size limit it names no more
// entries than it has bytes.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
		`<url><loc>http://a.example/x</loc><lastmod>2024-05-01</lastmod><priority>0.8</priority></url></urlset>`))
	f.Add([]byte(`<sitemapindex><sitemap><loc>http://a.example/s.xml</loc></sitemap></sitemapindex>`))
	f.Add([]byte("http://a.example/1\nhttp://a.example/2\n"))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("<urlset><url><loc>http://a.example/g</loc></url></urlset>"))
	zw.Close()
	f.Add(gz.Bytes())
	const max = 1 << 20
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		count := func(Entry) error { n++; return nil }
		ParseLimit(bytes.NewReader(data), Handler{URL: count, Sitemap: count}, max)
		if n > max {
			t.Fatalf("%d entries from at most %d bytes", n, max)
		}
		RobotsSitemaps(bytes.NewReader(data))
	})
}
