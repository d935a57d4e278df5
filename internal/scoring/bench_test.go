package scoring

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/text"
	"github.com/focuscrawl/focuscrawl/internal/topic"
	"github.com/focuscrawl/focuscrawl/internal/vsm"
)

// benchWords mixes topic words with common and rare ones.
var benchWords = strings.Fields(`森林 造林 抚育 间伐 林业 林地 小班 采伐 经营 树种 公益林 天然林
	政府 新闻 工作 会议 发展 建设 通知 公告 服务 管理 市场 企业 技术 经济 社会 文化 教育
	比赛 球队 旅游 酒店 价格 图书 作者 出版社 登录 首页 注册 下一页 更多 相关 链接`)

func benchModel(b *testing.B) *Model {
	p := &topic.Profile{Description: "森林经营 造林 抚育 间伐 林地 小班 采伐 树种 公益林 天然林",
		Keywords:   []topic.Keyword{{Term: "森林", Weight: 2}, {Term: "造林", Weight: 2}, {Term: "林业", Weight: 1}},
		Thresholds: topic.Thresholds{Page: 0.5, Link: 0.2}}
	m, err := NewModel(p, text.NewTokenizer(text.Options{}), vsm.Builtin())
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func pickWords(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		if r.IntN(4) == 0 {
			out[i] = fmt.Sprintf("词%d", r.IntN(5000)) // a long tail of rarer terms
		} else {
			out[i] = benchWords[r.IntN(len(benchWords))]
		}
	}
	return out
}

// benchDoc is a segmented page: 400 tokens of content, 60 links in 4
// blocks with anchors and contexts.
func benchDoc(r *rand.Rand, i int) record.Doc {
	d := record.Doc{URL: fmt.Sprintf("http://s%d.test/p%d", i%50, i), Title: strings.Join(pickWords(r, 4), ""),
		Tokens: pickWords(r, 400)}
	kinds := []string{record.BlockLinks, record.BlockNav, record.BlockLinks, record.BlockFooter}
	for b := range kinds {
		d.Blocks = append(d.Blocks, record.Block{ID: b + 1, Kind: kinds[b]})
	}
	for j := range 60 {
		d.Links = append(d.Links, record.Link{URL: fmt.Sprintf("http://s%d.test/p%d", r.IntN(50), r.IntN(100000)),
			Anchor: strings.Join(pickWords(r, 3), ""), Context: strings.Join(pickWords(r, 12), ""), Block: j%4 + 1})
	}
	return d
}

func benchScore(b *testing.B, method, strategy string) {
	m := benchModel(b)
	r := rand.New(rand.NewPCG(1, 1))
	docs := make([]record.Doc, 256)
	for i := range docs {
		docs[i] = benchDoc(r, i)
	}
	cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
	cfg.Page.Method, cfg.Links.Strategy = method, strategy
	sc := newScorer(b, m, cfg, nil)
	m.Tok.Tokens("预热") // load the dictionary before timing
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i >= len(docs) && strategy != LinksBestFirst {
			// Fresh docs: the model remembers the similarities of the
			// anchors and contexts it has seen.
			b.StopTimer()
			docs[i%len(docs)] = benchDoc(r, i)
			b.StartTimer()
		}
		if _, err := sc.Score(context.Background(), &docs[i%len(docs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkVSM: page relevance only (best-first ranks links for free).
func BenchmarkVSM(b *testing.B) { benchScore(b, PageVSM, LinksBestFirst) }

// BenchmarkBlockShark: vsm page score and block-shark over 60 links,
// anchors and contexts tokenized here.
func BenchmarkBlockShark(b *testing.B) { benchScore(b, PageVSM, LinksBlockShark) }

// synthGraph is a 100,000-page web: 200 sites, 20 links a page, 80% of
// them inside the site (linkage locality).
func synthGraph(pages int) *Graph {
	r := rand.New(rand.NewPCG(7, 7))
	g := NewGraph()
	for i := range pages {
		g.Node(fmt.Sprintf("http://s%d.test/p%d", i%200, i))
	}
	for i := range pages {
		for range 20 {
			j := r.IntN(pages)
			if r.IntN(5) != 0 {
				j = (j/200)*200 + i%200 // same site
				if j >= pages {
					j = i
				}
			}
			w := 0.01
			if r.IntN(4) == 0 {
				w = 0.5 + r.Float64()/2
			}
			g.From = append(g.From, int32(i))
			g.To = append(g.To, int32(j))
			g.W = append(g.W, w)
		}
	}
	return g
}

func heapMB() float64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// BenchmarkIPageRank100k: IPageRank to 1e-6 over 100,000 pages and
// 2,000,000 links.
func BenchmarkIPageRank100k(b *testing.B) {
	g := synthGraph(100000)
	b.ResetTimer()
	var iters int
	var x []float64
	for i := 0; i < b.N; i++ {
		x, iters = IPageRank(g, 0.85, 1e-6, 200, nil)
	}
	b.StopTimer()
	b.ReportMetric(float64(iters), "rounds")
	b.ReportMetric(heapMB(), "heapMB") // the graph and the scores, live
	runtime.KeepAlive(g)
	runtime.KeepAlive(x)
}

// BenchmarkLinkModel100k: the whole linkmodel (inverted index, top-10
// rows of V, iteration) over 100,000 candidates described by 15 terms.
func BenchmarkLinkModel100k(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	idf := vsm.Builtin()
	cands := make([]vsm.Vector, 100000)
	for i := range cands {
		cands[i] = idf.Vector(pickWords(r, 15))
	}
	seeds := []vsm.Vector{idf.Vector([]string{"森林", "造林", "抚育"}), idf.Vector([]string{"比赛", "球队"})}
	b.ResetTimer()
	var iters int
	var lm *LinkModel
	var x []float64
	for i := 0; i < b.N; i++ {
		lm = NewLinkModel(cands, seeds, []float64{1, -1}, 0.68, 10, 1000)
		x, iters = lm.Solve(nil, 1e-6, 200)
	}
	b.StopTimer()
	b.ReportMetric(float64(iters), "rounds")
	b.ReportMetric(heapMB(), "heapMB") // candidates, model and scores, live
	runtime.KeepAlive(cands)
	runtime.KeepAlive(lm)
	runtime.KeepAlive(x)
}

// BenchmarkCrawlWindows scores a 2,000-page crawl the way a crawl loop
// feeds score --db: in windows of 5 docs, each window seeing every link
// of the windows before it. One op is the whole crawl; compare the
// strategies' ns/op (linkmodel's target: within 1.5× shark's wall time
// for the crawl, of which scoring is a part).
func BenchmarkCrawlWindows(b *testing.B) {
	m := benchModel(b)
	r := rand.New(rand.NewPCG(7, 7))
	docs := make([]record.Doc, 2000)
	for i := range docs {
		docs[i] = benchDoc(r, i)
	}
	for _, strategy := range []string{LinksShark, LinksLinkModel, LinksSkyReach} {
		b.Run(strategy, func(b *testing.B) {
			for b.Loop() {
				cfg := Config{Page: DefaultPageOptions(), Links: DefaultLinkOptions()}
				cfg.Links.Strategy = strategy
				sc := newScorer(b, m, cfg, nil)
				for i := 0; i < len(docs); i += 5 {
					if _, err := sc.ScoreBatch(context.Background(), docs[i:i+5]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
