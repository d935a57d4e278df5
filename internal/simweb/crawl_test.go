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

// hostQueue is breadth-first order spread over hosts, the way seed next
// leases URLs: FIFO within a host, round robin over hosts in the order
// they were found.
type hostQueue struct {
	hosts  []string
	byHost map[string][]string
	next   int
}

func (h *hostQueue) push(u string) {
	host := u[len("http://"):]
	host = host[:strings.IndexByte(host+"/", '/')]
	if _, ok := h.byHost[host]; !ok {
		h.hosts = append(h.hosts, host)
	}
	h.byHost[host] = append(h.byHost[host], u)
}

func (h *hostQueue) pop() (string, bool) {
	for i := 0; i < len(h.hosts); i++ {
		host := h.hosts[(h.next+i)%len(h.hosts)]
		if q := h.byHost[host]; len(q) > 0 {
			h.byHost[host] = q[1:]
			h.next = (h.next + i + 1) % len(h.hosts)
			return q[0], true
		}
	}
	return "", false
}

// crawl fetches budget pages (answers 200) from seeds. Strategy "focused"
// orders the frontier by anchor and parent-page scores, "bfs" is FIFO,
// "bfs-hosts" is FIFO spread over hosts. It returns the harvest rate
// against the truth for topic and the number of relevant sites found.
func crawl(t testing.TB, w *Web, seeds []string, topic string, budget int, strategy string) (harvest float64, relevantSites int) {
	focused := strategy == "focused"
	hq := &hostQueue{byHost: map[string][]string{}}
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
		if strategy == "bfs-hosts" {
			hq.push(u)
			return
		}
		if !focused {
			prio = 0
		}
		heap.Push(q, crawlItem{u, prio, seq})
	}
	pop := func() (crawlItem, bool) {
		if strategy == "bfs-hosts" {
			u, ok := hq.pop()
			return crawlItem{url: u}, ok
		}
		if q.Len() == 0 {
			return crawlItem{}, false
		}
		return heap.Pop(q).(crawlItem), true
	}
	for _, s := range seeds {
		push(s, 1)
	}
	fetched, relevant := 0, 0
	sites := map[string]bool{}
	for fetched < budget {
		it, ok := pop()
		if !ok {
			break
		}
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

func TestCrawlTargetsReachable(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("crawls 4,000 pages")
	}
	w := New(Config{Seed: 1, NoFaults: true})
	seeds, err := w.Seeds("forestry")
	if err != nil {
		t.Fatal(err)
	}
	bfs, bfsSites := crawl(t, w, seeds, "forestry", 2000, "bfs")
	spread, spreadSites := crawl(t, w, seeds, "forestry", 2000, "bfs-hosts")
	best, bestSites := crawl(t, w, seeds, "forestry", 2000, "focused")
	t.Logf("forestry, 2000 pages: bfs harvest %.3f (%d relevant sites), bfs over hosts %.3f (%d), focused harvest %.3f (%d relevant sites)",
		bfs, bfsSites, spread, spreadSites, best, bestSites)
	for _, h := range []float64{bfs, spread} {
		if h > 0.40 {
			t.Errorf("bfs harvest %.3f > 0.40: the web is too easy", h)
		}
	}
	if best < 0.85 {
		t.Errorf("focused harvest %.3f < 0.85: the web gives a focused crawler too little", best)
	}
}
