package simweb

import (
	"math/rand/v2"
	"strings"
	"time"
)

// New builds the web of cfg. Building is deterministic and takes tens of
// milliseconds for the default 300 sites; no HTML is kept.
func New(cfg Config) *Web {
	cfg = cfg.withDefaults()
	w := &Web{
		cfg:    cfg,
		byHost: map[string]*site{},
		epoch:  time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC),
	}
	b := &builder{w: w, r: newRand(cfg.Seed, "build"), keys: map[string]bool{}}
	b.makeSites()
	for _, s := range w.sites {
		b.makePages(s)
	}
	b.makeHierarchy()
	b.makeTunnels()
	b.makeFriends()
	for _, s := range w.sites {
		if (s.kind == KindShop || s.kind == KindBookstore) && !s.down && len(s.items) > 0 {
			w.shops = append(w.shops, s)
		}
	}
	w.byTopic = make([][]int, len(Topics))
	for _, s := range w.sites {
		if s.topic >= 0 && s.tunnel == 0 && s.kind != KindShop {
			w.byTopic[s.topic] = append(w.byTopic[s.topic], s.id)
		}
	}
	return w
}

type builder struct {
	w    *Web
	r    *rand.Rand
	keys map[string]bool
	// name pool cursors
	prov, city, county, brandZ, brandE, adHost int
}

// kindShares splits the sites among the kinds, in per mille.
var kindShares = []struct {
	kind  SiteKind
	share int
}{
	{KindPortal, 40}, {KindAuthority, 170}, {KindGovPortal, 50}, {KindBookstore, 110},
	{KindShop, 90}, {KindForum, 90}, {KindLinkFarm, 60}, {KindAds, 20}, {KindContent, 0},
}

func (b *builder) makeSites() {
	n := b.w.cfg.Sites
	var kinds []SiteKind
	for _, ks := range kindShares {
		c := n * ks.share / 1000
		if ks.kind == KindContent {
			c = n - len(kinds)
		}
		if c < 1 {
			c = 1
		}
		if ks.kind == KindAuthority && c < 3 {
			c = 3
		}
		if ks.kind == KindAds && c > len(adHosts) {
			c = len(adHosts)
		}
		for i := 0; i < c && len(kinds) < n; i++ {
			kinds = append(kinds, ks.kind)
		}
	}
	// Authorities: mostly forestry, a national one first.
	authTopics := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 5, 5, 4, 3, 2, 5}
	contentTopics := []int{1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5}
	shopTopics := []int{4, 5, 2}
	nAuth, nContent, nShop, nForum := 0, 0, 0, 0
	for _, k := range kinds {
		s := &site{id: len(b.w.sites), kind: k, topic: noTopic, gate: -1, parent: -1}
		switch k {
		case KindPortal:
			s.lang = b.lang(0.3)
		case KindAuthority:
			s.topic = authTopics[nAuth%len(authTopics)]
			s.lang = langZH
			if nAuth > 2 && chance(b.r, 0.08) {
				s.lang = langEN
			}
			nAuth++
		case KindGovPortal:
			s.lang = langZH
		case KindBookstore:
			s.topic = 0
			s.lang = b.lang(0.4)
		case KindShop:
			s.topic = shopTopics[nShop%len(shopTopics)]
			s.lang = b.lang(0.35)
			nShop++
		case KindContent:
			s.topic = contentTopics[nContent%len(contentTopics)]
			s.lang = b.lang(0.3)
			nContent++
		case KindForum:
			if nForum%2 == 1 {
				s.topic = 1 + (nForum/2)%5
			}
			s.lang = b.lang(0.3)
			nForum++
		case KindLinkFarm:
			s.lang = b.lang(0.4)
		}
		b.w.sites = append(b.w.sites, s)
	}
	b.rankAuthorities()
	for _, s := range b.w.sites {
		b.name(s)
		b.traits(s)
		b.w.byHost[s.host] = s
		if s.alias != "" {
			b.w.byHost[s.alias] = s
		}
		if s.kind == KindAds {
			b.w.ads = append(b.w.ads, s)
		}
	}
}

func (b *builder) lang(pEN float64) int {
	if chance(b.r, pEN) {
		return langEN
	}
	return langZH
}

// rankAuthorities gives every authority a rank: per topic, the first is
// national, then a quarter provinces, a third cities, the rest counties.
func (b *builder) rankAuthorities() {
	byTopic := map[int][]*site{}
	for _, s := range b.w.sites {
		if s.kind == KindAuthority {
			byTopic[s.topic] = append(byTopic[s.topic], s)
		}
	}
	for _, list := range byTopic {
		n := len(list)
		for i, s := range list {
			switch {
			case i == 0:
				s.rank = "national"
			case i <= 1+n/4:
				s.rank = "province"
			case i <= 1+n/4+n/3:
				s.rank = "city"
			default:
				s.rank = "county"
			}
		}
	}
	for _, s := range b.w.sites {
		if s.kind == KindGovPortal {
			s.rank = "city"
			if chance(b.r, 0.4) {
				s.rank = "county"
			}
		}
	}
}

// Host names and display names.

// traits decides each site's encoding, failures, robots rules and traps.
func (b *builder) traits(s *site) {
	r := newRand(b.w.cfg.Seed, "traits", s.host)
	if s.kind == KindAds {
		return
	}
	if s.lang == langZH && s.kind != KindLinkFarm && chance(r, 0.3) {
		s.gbk = true
		switch x := r.Float64(); {
		case x < 0.4:
			s.decl = declHeader | declMeta
		case x < 0.6:
			s.decl = declHeader
		case x < 0.85:
			s.decl = declMeta
		}
	}
	s.gzip = chance(r, 0.5)
	national := s.rank == "national"
	s.slow = !national && chance(r, 0.05)
	s.rateLimited = !national && chance(r, 0.04)
	s.flaky = !national && chance(r, 0.04)
	if !national && chance(r, 0.06) {
		s.errPct = between(r, 5, 15)
	}
	s.down = s.kind == KindContent && chance(r, 0.02)
	if chance(r, 0.45) || s.kind == KindBookstore || s.kind == KindShop {
		s.robots = true
		if chance(r, 0.3) {
			s.crawlDelay = pick(r, []string{"0.5", "1"})
		}
	}
	s.calendar = (s.kind == KindAuthority || s.kind == KindGovPortal || s.kind == KindPortal) && chance(r, 0.3)
	s.sessions = s.kind == KindForum || (s.kind == KindShop && chance(r, 0.3))
	s.legacy = (s.kind == KindAuthority || s.kind == KindContent || s.kind == KindGovPortal) && chance(r, 0.25)
	if s.kind != KindLinkFarm && chance(r, 0.2) {
		s.alias = strings.TrimPrefix(s.host, "www.")
		if s.alias == s.host {
			s.alias = ""
		}
	}
	if s.rateLimited {
		s.limiter = &limiter{rate: b.w.cfg.RateLimit}
	}
	s.idBase = 100 + r.IntN(90000)
	s.spacingH = between(r, 6, 72)
}
