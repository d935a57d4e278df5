package simweb

import (
	"container/heap"
	"io"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// A miniature crawler over the handler, to check that the web's structure
// makes the benchmark's targets possible: breadth-first from the seeds
// harvests little, a focused crawler that only reads anchors and page text
// can harvest a lot.

var linkRE = regexp.MustCompile(`<a href="([^"]+)"[^>]*>([^<]*)</a>`)
var tagRE = regexp.MustCompile(`<[^>]*>`)

type crawlPage struct {
	status   int
	location string
	text     string
	links    []crawlLink
}

type crawlLink struct{ url, anchor string }

func crawlFetch(t testing.TB, w *Web, u string) crawlPage {
	req := httptest.NewRequest("GET", u, nil)
	rec := httptest.NewRecorder()
	w.Handler().ServeHTTP(rec, req)
	p := crawlPage{status: rec.Code, location: rec.Header().Get("Location")}
	if rec.Code != 200 {
		return p
	}
	body, _ := io.ReadAll(rec.Body)
	if st, ok := w.Site(req.Host); ok && st.Charset == "gbk" {
		dec, err := simplifiedchinese.GBK.NewDecoder().Bytes(body)
		if err != nil {
			t.Fatalf("%s: GBK body does not decode: %v", u, err)
		}
		body = dec
	}
	s := string(body)
	base, _ := url.Parse(u)
	for _, m := range linkRE.FindAllStringSubmatch(s, -1) {
		if strings.HasPrefix(m[1], "javascript:") {
			continue
		}
		ref, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
		if err != nil {
			t.Fatalf("%s: bad href %q", u, m[1])
		}
		p.links = append(p.links, crawlLink{base.ResolveReference(ref).String(), m[2]})
	}
	p.text = tagRE.ReplaceAllString(s, " ")
	return p
}

// forestryTerms is what a user's profile might list: a few dozen terms,
// far fewer than the pages use.
var forestryTerms = strings.Fields(`森林 林业 造林 抚育 间伐 采伐 林地 宜林地 小班 林班 蓄积量 郁闭度 树种 混交林
天然林 公益林 退耕还林 封山育林 苗木 森林防火 林场 林权 林木 营林 有害生物 森林资源 绿化 湿地 自然保护地`)

func termScore(s string, terms []string) float64 {
	if s == "" {
		return 0
	}
	hits := 0
	for _, t := range terms {
		hits += strings.Count(s, t)
	}
	n := len([]rune(s))
	return float64(hits*40) / float64(n+40)
}

type crawlItem struct {
	url  string
	prio float64
	seq  int
}
type crawlQueue []crawlItem

func (q crawlQueue) Len() int { return len(q) }
func (q crawlQueue) Less(i, j int) bool {
	if q[i].prio != q[j].prio {
		return q[i].prio > q[j].prio
	}
	return q[i].seq < q[j].seq
}
func (q crawlQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *crawlQueue) Push(x any)   { *q = append(*q, x.(crawlItem)) }
func (q *crawlQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// crawl fetches budget pages (answers 200) from seeds; focused orders the
// frontier by anchor and parent-page scores, otherwise it is FIFO. It
// returns the harvest rate against the truth for topic.
func crawl(t testing.TB, w *Web, seeds []string, topic string, budget int, focused bool) (harvest float64, relevantSites int) {
	q := &crawlQueue{}
	seen := map[string]bool{}
	seq := 0
	push := func(u string, prio float64) {
		// A good crawler drops session ids from URLs.
		if i := strings.Index(u, "sid="); i > 0 {
			u = strings.TrimRight(u[:i], "?&")
		}
		if seen[u] {
			return
		}
		seen[u] = true
		seq++
		if !focused {
			prio = 0
		}
		heap.Push(q, crawlItem{u, prio, seq})
	}
	for _, s := range seeds {
		push(s, 1)
	}
	fetched, relevant := 0, 0
	sites := map[string]bool{}
	for q.Len() > 0 && fetched < budget {
		it := heap.Pop(q).(crawlItem)
		truth, ok := w.Page(it.url)
		if !ok || truth.Disallowed {
			continue
		}
		p := crawlFetch(t, w, it.url)
		if p.location != "" {
			push(p.location, it.prio)
			continue
		}
		if p.status != 200 {
			continue
		}
		fetched++
		if crawlDebug != nil {
			crawlDebug[truth.SiteKind+"/"+truth.Kind+"/"+truth.Topic]++
		}
		if truth.Relevant(topic) {
			relevant++
			sites[truth.Site] = true
		}
		ps := termScore(p.text, forestryTerms)
		for _, l := range p.links {
			a := termScore(l.anchor, forestryTerms)
			push(l.url, 0.6*a+0.4*ps)
		}
	}
	if fetched == 0 {
		return 0, 0
	}
	return float64(relevant) / float64(fetched), len(sites)
}

var crawlDebug map[string]int

func TestCrawlTargetsReachable(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("crawls 4,000 pages")
	}
	w := New(Config{Seed: 1, NoFaults: true})
	seeds, err := w.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	bfs, bfsSites := crawl(t, w, seeds, "forestry", 2000, false)
	crawlDebug = map[string]int{}
	best, bestSites := crawl(t, w, seeds, "forestry", 2000, true)
	for k, v := range crawlDebug {
		if v > 20 {
			t.Log(k, v)
		}
	}
	crawlDebug = nil
	t.Logf("forestry, 2000 pages: bfs harvest %.3f (%d relevant sites), focused harvest %.3f (%d relevant sites)", bfs, bfsSites, best, bestSites)
	if bfs > 0.40 {
		t.Errorf("bfs harvest %.3f > 0.40: the web is too easy", bfs)
	}
	if best < 0.85 {
		t.Errorf("focused harvest %.3f < 0.85: the web gives a focused crawler too little", best)
	}
}
