package simweb

import "sort"

// makeHierarchy links authorities of one topic: national -> provinces ->
// cities -> counties.
func (b *builder) makeHierarchy() {
	byRank := map[int]map[string][]*site{}
	for _, s := range b.w.sites {
		if s.kind != KindAuthority || s.lang != langZH {
			continue
		}
		if byRank[s.topic] == nil {
			byRank[s.topic] = map[string][]*site{}
		}
		byRank[s.topic][s.rank] = append(byRank[s.topic][s.rank], s)
	}
	for _, ranks := range byRank {
		up := map[string]string{"province": "national", "city": "province", "county": "city"}
		for _, rank := range []string{"province", "city", "county"} {
			parents := ranks[up[rank]]
			if len(parents) == 0 {
				parents = ranks["national"]
			}
			if len(parents) == 0 {
				continue
			}
			for i, s := range ranks[rank] {
				p := parents[i%len(parents)]
				s.parent = p.id
				p.children = append(p.children, s.id)
			}
		}
	}
}

// makeTunnels hides about a fifth of the county and city authorities and
// of the content sites in clusters of one to three sites of one topic,
// reachable only through one to four pages of a government portal.
func (b *builder) makeTunnels() {
	var gates []*site
	for _, s := range b.w.sites {
		if s.kind == KindGovPortal {
			gates = append(gates, s)
		}
	}
	if len(gates) == 0 {
		return
	}
	cands := map[int][]*site{}
	for _, s := range b.w.sites {
		hidden := (s.kind == KindAuthority && (s.rank == "county" || s.rank == "city")) || (s.kind == KindContent && !s.down)
		if hidden && chance(b.r, 0.22) {
			cands[s.topic] = append(cands[s.topic], s)
		}
	}
	topics := make([]int, 0, len(cands))
	for t := range cands {
		topics = append(topics, t)
	}
	sort.Ints(topics)
	g := 0
	for _, t := range topics {
		list := cands[t]
		for len(list) > 0 {
			size := between(b.r, 1, 3)
			if size > len(list) {
				size = len(list)
			}
			cluster := list[:size]
			list = list[size:]
			gate := gates[g%len(gates)]
			g++
			length := between(b.r, 1, 4)
			var ids []int
			for _, s := range cluster {
				ids = append(ids, s.id)
			}
			for _, s := range cluster {
				s.tunnel, s.gate = length, gate.id
				for _, o := range ids {
					if o != s.id {
						s.cluster = append(s.cluster, o)
					}
				}
				gate.gated = append(gate.gated, s.id)
				gate.gateAt = append(gate.gateAt, length)
			}
		}
	}
	// A hidden site is nobody's child: its parent does not link to it.
	for _, s := range b.w.sites {
		kept := s.children[:0]
		for _, c := range s.children {
			if b.w.sites[c].tunnel == 0 {
				kept = append(kept, c)
			}
		}
		s.children = kept
	}
}

// competitors never link to each other.
func competitors(a, b *site) bool {
	switch a.kind {
	case KindBookstore, KindShop, KindPortal:
		return a.kind == b.kind
	}
	return false
}

// makeFriends draws the site graph: each site links from its footer to a
// few sites, mostly of its own topic (linkage locality), never to a
// competitor, and to a hidden site only from inside its cluster.
func (b *builder) makeFriends() {
	w := b.w
	var open []*site // sites any other site may link to
	byTopic := map[int][]*site{}
	var portals, govs, farms []*site
	for _, s := range w.sites {
		if s.tunnel > 0 || s.kind == KindAds || s.kind == KindLinkFarm {
			if s.kind == KindLinkFarm {
				farms = append(farms, s)
			}
			continue
		}
		open = append(open, s)
		byTopic[s.topic] = append(byTopic[s.topic], s)
		switch s.kind {
		case KindPortal:
			portals = append(portals, s)
		case KindGovPortal:
			govs = append(govs, s)
		}
	}
	for _, s := range w.sites {
		r := newRand(w.cfg.Seed, "friends", s.host)
		seen := map[int]bool{s.id: true}
		add := func(o *site) {
			if o == nil || seen[o.id] || competitors(s, o) {
				return
			}
			seen[o.id] = true
			s.friends = append(s.friends, o.id)
		}
		addFrom := func(list []*site, n int) {
			for i := 0; i < n*3 && n > 0 && len(list) > 0; i++ {
				before := len(s.friends)
				add(list[r.IntN(len(list))])
				if len(s.friends) > before {
					n--
				}
			}
		}
		switch s.kind {
		case KindAds:
			continue
		case KindLinkFarm:
			addFrom(open, 20)
			addFrom(farms, 3)
			continue
		case KindPortal:
			for t := range Topics {
				addFrom(byTopic[t], 4)
			}
			addFrom(govs, 2)
			continue
		}
		for _, o := range s.cluster {
			add(w.sites[o])
		}
		if s.parent >= 0 {
			add(w.sites[s.parent])
		}
		same := 4
		if s.topic < 0 {
			same = 0
		}
		addFrom(byTopic[s.topic], same)
		addFrom(open, 2)
		addFrom(portals, 1)
		if s.kind == KindAuthority || s.kind == KindGovPortal {
			addFrom(govs, 1)
		}
		if s.kind == KindForum || (s.kind == KindContent && chance(r, 0.3)) {
			addFrom(farms, 1)
		}
	}
}
