package simweb

import (
	"fmt"
	"math/rand/v2"
)

// Site sizes: item pages per kind (and rank).
func (b *builder) itemCount(s *site, r *rand.Rand) int {
	switch s.kind {
	case KindPortal:
		return between(r, 400, 800)
	case KindAuthority:
		switch s.rank {
		case "national":
			return between(r, 400, 500)
		case "province":
			return between(r, 180, 300)
		case "city":
			return between(r, 100, 180)
		}
		return between(r, 50, 110)
	case KindGovPortal:
		return between(r, 60, 140)
	case KindBookstore:
		return between(r, 150, 450)
	case KindShop:
		return between(r, 100, 280)
	case KindContent:
		return between(r, 60, 220)
	case KindForum:
		return between(r, 100, 300)
	case KindLinkFarm:
		return between(r, 30, 90)
	}
	return 0
}

func (b *builder) columnsOf(s *site) []colDef {
	zh := s.lang == langZH
	switch s.kind {
	case KindPortal:
		if zh {
			return portalColsZH
		}
		return portalColsEN
	case KindAuthority:
		if zh {
			return append(append([]colDef(nil), govTopicCols[s.topic]...), govAdminCols...)
		}
		return append(append([]colDef(nil), enTopicCols[s.topic]...), enAdminCols...)
	case KindGovPortal:
		return govPortalCols
	case KindBookstore:
		if zh {
			return bookColsZH
		}
		return bookColsEN
	case KindShop:
		if zh {
			return shopColsZH[s.topic]
		}
		return shopColsEN[s.topic]
	case KindContent:
		if zh {
			return zhContentCols[s.topic]
		}
		return append(append([]colDef(nil), enTopicCols[s.topic]...), enAdminCols[:1]...)
	case KindForum:
		var boards []colDef
		all := forumBoardsZH
		if !zh {
			all = forumBoardsEN
		}
		for _, c := range all {
			if s.topic < 0 || c.topic == s.topic || c.topic == noTopic {
				if s.topic >= 0 && c.topic == s.topic {
					c.weight = 6
				}
				boards = append(boards, c)
			}
		}
		return boards
	}
	return nil
}

// makePages fills a site's page table: home, static pages, then per
// column its list pages and its items.
func (b *builder) makePages(s *site) {
	r := newRand(b.w.cfg.Seed, "pages", s.host)
	s.index = map[string]int32{}
	add := func(p page) {
		s.pages = append(s.pages, p)
	}
	add(page{kind: pHome, topic: int8(s.topic)})
	switch s.kind {
	case KindAds:
		b.indexPages(s)
		return
	case KindLinkFarm:
		n := b.itemCount(s, r)
		for i := 1; i <= n; i++ {
			add(page{kind: pFarm, topic: noTopic, num: int32(i)})
		}
		b.indexPages(s)
		return
	case KindBookstore, KindShop:
		s.statics = append(append([]staticDef(nil), staticPages...), shopStatics...)
	case KindAuthority, KindGovPortal:
		if s.lang == langZH {
			s.statics = append(append([]staticDef(nil), staticPages...), govStatics...)
		} else {
			s.statics = staticPages
		}
	case KindForum:
		s.statics = staticPages[:2]
	default:
		s.statics = staticPages
	}
	for i := range s.statics {
		add(page{kind: pStatic, topic: noTopic, num: int32(i)})
	}
	if s.kind == KindGovPortal {
		for step := int32(2); step <= 4; step++ {
			add(page{kind: pTunnel, topic: noTopic, num: step})
		}
	}
	defs := b.columnsOf(s)
	total := b.itemCount(s, r)
	wsum := 0
	for _, d := range defs {
		wsum += d.weight
	}
	itemKind := pArticle
	switch s.kind {
	case KindBookstore, KindShop:
		itemKind = pProduct
	case KindForum:
		itemKind = pThread
	}
	per := int32(20)
	switch s.kind {
	case KindBookstore, KindShop:
		per = 24
	case KindForum:
		per = 30
	}
	if s.lang == langEN && s.kind != KindBookstore && s.kind != KindShop {
		per = 15
	}
	num := int32(0)
	for ci, d := range defs {
		n := int32(total * d.weight / wsum)
		if n < 3 {
			n = 3
		}
		c := column{colDef: d, n: n, perPage: per}
		c.lists = (n + per - 1) / per
		c.listFirst = int32(len(s.pages))
		for i := int32(0); i < c.lists; i++ {
			add(page{kind: pList, topic: int8(b.listTopic(s, d)), col: int16(ci), num: i})
		}
		c.first = int32(len(s.pages))
		for i := int32(0); i < n; i++ {
			t, sub := b.itemTopic(s, d, r)
			add(page{kind: itemKind, topic: int8(t), col: int16(ci), num: num, sub: int8(sub)})
			s.items = append(s.items, int32(len(s.pages)-1))
			num++
		}
		s.cols = append(s.cols, c)
	}
	b.indexPages(s)
	for _, pi := range s.items {
		if int(s.pages[pi].topic) == s.topic && s.topic >= 0 {
			s.topical = append(s.topical, pi)
		}
	}
	// A few hot search queries, linked from the header (robots may forbid).
	for i := 0; i < 5; i++ {
		t := s.topic
		if t < 0 {
			t = r.IntN(len(Topics))
		}
		s.searchQ = append(s.searchQ, pick(r, topicWords(t, s.lang)))
	}
}

// listTopic is the topic of a column's list pages: a list of topic items is
// a topic page; a list of administrative items is not.
func (b *builder) listTopic(s *site, d colDef) int {
	if d.mixed || d.topic < 0 {
		return noTopic
	}
	if s.kind == KindBookstore {
		return 0
	}
	return d.topic
}

// itemTopic chooses the topic of one item: mostly the column's, with
// off-topic items in topic columns and topic items in mixed columns.
func (b *builder) itemTopic(s *site, d colDef, r *rand.Rand) (topic, sub int) {
	switch s.kind {
	case KindBookstore:
		sub = d.topic
		if sub == 0 && chance(r, 0.15) {
			sub = 1 + r.IntN(len(Topics)-1)
		}
		return 0, sub
	case KindShop:
		return s.topic, s.topic
	}
	site := s.topic
	if d.mixed {
		if site >= 0 && chance(r, 0.5) {
			return site, site
		}
		return noTopic, noTopic
	}
	if d.topic < 0 {
		if chance(r, 0.05) {
			t := r.IntN(len(Topics))
			return t, t
		}
		return noTopic, noTopic
	}
	x := r.Float64()
	switch {
	case x < 0.88:
		return d.topic, d.topic
	case x < 0.96:
		t := r.IntN(len(Topics))
		return t, t
	}
	return noTopic, noTopic
}

func (b *builder) indexPages(s *site) {
	for i, p := range s.pages {
		path := b.w.path(s, p)
		if _, dup := s.index[path]; dup {
			panic(fmt.Sprintf("simweb: duplicate path %s on %s", path, s.host))
		}
		s.index[path] = int32(i)
	}
}
