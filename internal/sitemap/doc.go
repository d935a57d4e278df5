// Package sitemap reads the sitemaps sites publish for crawlers
// (sitemaps.org): the Sitemap: lines of robots.txt, sitemap XML files,
// sitemap indexes that list further sitemaps, gzip-compressed sitemaps and
// plain-text sitemaps (one URL per line). Sitemaps are decoded as a stream,
// one <url> at a time, so a 50,000-URL file never sits in memory whole.
package sitemap
