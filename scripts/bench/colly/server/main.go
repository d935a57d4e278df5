// Command server is the loopback web of the fetch benchmark: any host name,
// pages of about 20 KB of mostly Chinese HTML at /page/N, and an
// allow-all robots.txt. Pages are rendered once at start so the server
// spends its CPU on HTTP, not on templates.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
)

const variants = 16

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	size := flag.Int("size", 20<<10, "page size in bytes")
	flag.Parse()
	pages := make([][]byte, variants)
	for i := range pages {
		pages[i] = render(i, *size)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ln.Addr().String())
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("User-agent: *\nAllow: /\n"))
	})
	mux.HandleFunc("/page/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/page/"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(pages[n%variants])
	})
	log.Fatal(http.Serve(ln, mux))
}

// render builds a page of about size bytes: a nav bar, links and
// paragraphs of Chinese text with some markup and quotes.
func render(v, size int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"zh\"><head><meta charset=\"utf-8\"><title>森林经营与造林技术 第%d篇</title></head><body>\n", v)
	b.WriteString("<div class=\"nav\"><a href=\"/\">首页</a> <a href=\"/news\">新闻</a> <a href=\"/policy\">政策法规</a></div>\n")
	para := "国家林业和草原局发布了关于进一步加强森林经营工作的通知。各地要科学编制森林经营方案，严格执行造林、抚育、间伐等技术规程，" +
		"提高宜林地造林质量，落实小班和林班的管理责任。“十四五”期间，全国完成造林面积超过三千万亩。"
	for i := 0; b.Len() < size-200; i++ {
		fmt.Fprintf(&b, "<p id=\"p%d\">%s <a href=\"/page/%d\">相关文章%d</a></p>\n", i, para, v*100+i, i)
	}
	b.WriteString("<div class=\"footer\">版权所有 © 2026</div></body></html>\n")
	return []byte(b.String())
}
