package frontier

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestRedisPackAgreesWithLua: Go's MessagePack writes every kind of value
// a record holds as the scripts' cmsgpack.pack does, at each boundary of
// its forms.
func TestRedisPackAgreesWithLua(t *testing.T) {
	s, _ := openTestRedis(t)
	ctx := context.Background()
	numbers := []float64{0, 1, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, 1 << 53, -1, -32, -33, -128, -129,
		-32768, -32769, -1 << 31, -1<<31 - 1, -1 << 53, 0.5, 0.25, 0.7, 0.1, 1.0 / 3, -0.75, 1e-7, 3.4e38, 1e300,
		math.Copysign(0, -1), 9007199254740993, 1 << 62, -1 << 63}
	pack := redis.NewScript(`return cmsgpack.pack(tonumber(ARGV[1]))`)
	for _, f := range numbers {
		want, err := pack.Run(ctx, s.Client(), []string{s.Prefix()}, strconv.FormatFloat(f, 'g', -1, 64)).Text()
		if err != nil {
			t.Fatal(err)
		}
		if got := appendMsgpackNumber(nil, f); !bytes.Equal(got, []byte(want)) {
			t.Errorf("number %v: Go packs % x, Lua % x", f, got, want)
		}
		v, err := decodeMsgpackArray(append([]byte{0x91}, want...))
		if err != nil {
			t.Fatalf("number %v as Lua packs it (% x): %v", f, want, err)
		}
		if got, ok := msgpackNumber(v[0]); !ok || got != f {
			t.Errorf("number %v as Lua packs it (% x): Go reads %v (a number: %v)", f, want, v, ok)
		}
	}
	packs := redis.NewScript(`return cmsgpack.pack(ARGV[1])`)
	for _, n := range []int{0, 1, 31, 32, 255, 256, 65535, 65536} {
		str := strings.Repeat("é", n/2) + strings.Repeat("x", n%2)
		want, err := packs.Run(ctx, s.Client(), []string{s.Prefix()}, str).Text()
		if err != nil {
			t.Fatal(err)
		}
		if got := appendMsgpackString(nil, str); !bytes.Equal(got, []byte(want)) {
			t.Errorf("string of %d bytes: Go packs % x…, Lua % x…", n, got[:min(5, len(got))], want[:min(5, len(want))])
		}
		if v, err := decodeMsgpackArray(append([]byte{0x91}, want...)); err != nil || v[0] != str {
			t.Errorf("string of %d bytes as Lua packs it: Go reads it wrong (%v)", n, err)
		}
	}
	packa := redis.NewScript(`local t = {} for i = 1, tonumber(ARGV[1]) do t[i] = i end return cmsgpack.pack(t)`)
	for _, n := range []int{1, 15, 16, 65535, 65536} {
		want, err := packa.Run(ctx, s.Client(), []string{s.Prefix()}, n).Text()
		if err != nil {
			t.Fatal(err)
		}
		got := appendMsgpackArray(nil, n)
		for i := 1; i <= n; i++ {
			got = appendMsgpackInt(got, int64(i))
		}
		if !bytes.Equal(got, []byte(want)) {
			t.Errorf("array of %d: Go packs % x…, Lua % x…", n, got[:5], want[:5])
		}
	}
}

// TestRedisLuaHost: luaHost reads a URL's host as the scripts' rhost
// does, so a record packed in Go keeps its host exactly when one packed
// by a script would.
func TestRedisLuaHost(t *testing.T) {
	s, _ := openTestRedis(t)
	rhost := redis.NewScript(luaPrelude + `return rhost({ARGV[1], ''})`)
	for _, u := range []string{"https://a.example.cn/x", "http://a.example.cn", "https://a.example.cn:8443/x?q=1#f",
		"https://user:pw@b.example.cn/x", "https://a@b@c.example.cn/", "http://a.example.cn?x=1", "http://a.example.cn#f",
		"mailto:x@y.cn", "://a.cn/x", "a.cn/x", "", "https://", "https:///x", "http://[::1]:80/x", "https://ä.example.cn/é"} {
		want, err := rhost.Run(context.Background(), s.Client(), []string{s.Prefix()}, u).Text()
		if err != nil {
			t.Fatal(err)
		}
		if got := luaHost(u); got != want {
			t.Errorf("luaHost(%q) = %q, the scripts read %q", u, got, want)
		}
	}
}

// TestRedisQueuedRecordsAsLuaPacks: the records of URLs queued new,
// which Go packs but for their sequence number, are the bytes the
// scripts' cmsgpack.pack writes for their fields, and those fields are
// the entries'.
func TestRedisQueuedRecordsAsLuaPacks(t *testing.T) {
	s, _ := openTestRedis(t)
	ctx := context.Background()
	parent := entry("https://p.example.cn/", "p.example.cn", 1, 0)
	cQueue(t, s, parent)
	es := []Entry{
		entry("https://a.example.cn/1", "a.example.cn", 0.5, 0),
		entry("https://a.example.cn/2", "a.example.cn", 0.7, 3),
		entry("https://user@b.example.cn:8080/x?q=1", "b.example.cn:8080", 1.0/3, 63),
		entry("https://c.example.cn/ä", "other.example.cn", 0, 70),
		entry("https://d.example.cn/"+strings.Repeat("x", 300), "d.example.cn", 1, 1),
		entry("https://e.example.cn/\xff", "e.example.cn", 0.9, 1),
	}
	es[1].Parent, es[1].Anchor, es[1].Inherited = parent.URL, "an <anchor> & more", 0.125
	es[2].Parent, es[2].Inherited = "https://unknown.example.cn/", 0.3
	es[3].Meta = json.RawMessage(`{"k":"v"}`)
	es[4].Anchor = strings.Repeat("é", 200)
	if _, err := s.Apply(ctx, Batch{Queue: es}); err != nil {
		t.Fatal(err)
	}
	check := redis.NewScript(luaPrelude + `
local out = {}
for i = 1, #ARGV do
  local r = getrec(ARGV[i])
  if not r then return 'no record ' .. i end
  local v = redis.call('HGET', bkey(ARGV[i]), ARGV[i])
  out[i] = {v == packrec(r) and 1 or 0, r[URL], r[HOST], r[STATE], fmt(r[PRIO]), r[DEPTH], tohex(r[PARENT]), r[ANCHOR], fmt(r[INH]), r[META], #r}
end
return cjson.encode(out)`)
	var ids []any
	for _, e := range es {
		ids = append(ids, redisID(e.URL))
	}
	v, err := check.Run(ctx, s.Client(), []string{s.Prefix()}, ids...).Text()
	if err != nil {
		t.Fatal(err)
	}
	var recs [][]any
	if err := json.Unmarshal([]byte(v), &recs); err != nil {
		t.Fatalf("%v: %s", err, v)
	}
	for i, e := range es {
		host := e.Host
		if luaHost(e.URL) == e.Host {
			host = ""
		}
		pid := ""
		if e.Parent == parent.URL {
			pid = hexID(parent.URL)
		}
		want := fmt.Sprint([]any{1, luaText(e.URL), host, 0, fmt.Sprintf("%.17g", e.Priority), e.Depth, pid, e.Anchor,
			fmt.Sprintf("%.17g", e.Inherited), entryMeta(&e), recSeq})
		if got := fmt.Sprint(recs[i]); got != want {
			t.Errorf("record of %s (1: as Lua packs it):\n got %s\nwant %s", e.URL, got, want)
		}
	}
}

// TestRedisQueueTakenIDs: a URL whose id another URL's record holds (a
// hash collision), and a link whose parent is stored under such a next
// id, are queued by the scripts' own path, not with the record Go packed:
// each under the next free id, a link's parent field naming the id its
// parent is stored under.
func TestRedisQueueTakenIDs(t *testing.T) {
	s, _ := openTestRedis(t)
	ctx := context.Background()
	plant := redis.NewScript(luaPrelude + `
redis.call('HSET', bkey(ARGV[1]), ARGV[1], cmsgpack.pack({ARGV[2], '', ST_DONE, 0, 0, '', '', 0, '', 1}))`)
	p := entry("https://p.example.cn/", "p.example.cn", 0.5, 0)
	c1 := entry("https://c.example.cn/1", "c.example.cn", 0.25, 1)
	c2 := entry("https://c.example.cn/2", "c.example.cn", 0.125, 1)
	c1.Parent, c2.Parent = p.URL, p.URL
	for _, u := range []string{p.URL, c2.URL} { // c1's own id is free
		if err := plant.Run(ctx, s.Client(), []string{s.Prefix()}, redisID(u), u+"#another").Err(); errNil(err) != nil {
			t.Fatal(err)
		}
	}
	if res := cQueue(t, s, p, c1, c2); res.Queued != 3 {
		t.Fatalf("queued %d of 3 URLs", res.Queued)
	}
	next := func(u string) string { // the id after u's, as the scripts' incid
		b := []byte(redisID(u))
		for i := 7; i >= 0; i-- {
			if b[i]++; b[i] != 0 {
				break
			}
		}
		return fmt.Sprintf("%x", b)
	}
	check := redis.NewScript(luaPrelude + `
local out = {}
for i = 1, #ARGV do
  local r = getrec(unhex(ARGV[i]))
  out[i] = r and {r[URL], r[STATE], tohex(r[PARENT])} or {}
end
return cjson.encode(out)`)
	v, err := check.Run(ctx, s.Client(), []string{s.Prefix()}, next(p.URL), hexID(c1.URL), next(c2.URL)).Text()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`[[%q,%d,""],[%q,%d,%q],[%q,%d,%q]]`, p.URL, Queued, c1.URL, Queued, next(p.URL),
		c2.URL, Queued, next(p.URL))
	if strings.ReplaceAll(v, `\/`, `/`) != want {
		t.Errorf("records (url, state, parent id):\n got %s\nwant %s", v, want)
	}
}

// TestLeaseGivesWhatWasQueued: a lease hands out each URL with the
// lineage it was queued with — priority and inherited score to the last
// bit, depth, parent, anchor, meta, site — on every store (the Redis
// lease reads them from the stored records).
func TestLeaseGivesWhatWasQueued(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store, _ func(*testing.T) Store) {
		ctx := context.Background()
		p := entry("https://p.example.cn/", "p.example.cn", 1, 0)
		es := []Entry{
			entry("https://a.example.cn/1", "a.example.cn", 0.5, 1),
			entry("https://b.example.cn/2", "b.example.cn", 1.0/3, 2),
			entry("https://c.example.cn/3", "c.example.cn", 0.7, 63),
			entry("https://d.example.cn/4", "d.example.cn", 0.1, 1),
		}
		es[0].Inherited, es[1].Inherited, es[2].Inherited, es[3].Inherited = 0.25, 0.123456789012345, 1.0/7, 0
		es[0].Anchor, es[1].Anchor = "ä <anchor>", strings.Repeat("x", 40)
		es[2].Meta = json.RawMessage(`{"k":[1,2]}`)
		for i := range es {
			es[i].Parent = p.URL
		}
		cQueue(t, s, p)
		cQueue(t, s, es...)
		got, err := s.Lease(ctx, LeaseRequest{N: 10, For: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		byURL := map[string]string{}
		for _, u := range got {
			byURL[u.URL] = fmt.Sprintf("%v %v %d %q %q %s %q", u.Priority, u.Inherited, u.Depth, u.Parent, u.Anchor, u.Meta, u.Site)
		}
		for _, e := range append([]Entry{p}, es...) {
			want := fmt.Sprintf("%v %v %d %q %q %s %q", e.Priority, e.Inherited, e.Depth, e.Parent, e.Anchor, e.Meta, e.Site)
			if byURL[e.URL] != want {
				t.Errorf("%s leased as %q, queued as %q", e.URL, byURL[e.URL], want)
			}
		}
	})
}
