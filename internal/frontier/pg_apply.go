package frontier

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// pgApply is one Apply call's transaction on PostgreSQL.
type pgApply struct {
	s   *PostgresStore
	ctx context.Context
	tx  pgx.Tx
	now int64

	hosts  map[string]hostInfo  // hosts touched in this transaction
	states map[int64]*hostState // host state read in this transaction
	counts map[int64]*pageCount // host id -> pages fetched, relevant, to add
	guards map[string]int64     // new URLs refused by host state
	refuse map[string]int64     // refusals to count, by guard

	requeued      int64     // outcomes put back in the queue
	redirected    pageCount // URLs done as redirect targets, and the relevant ones
	robotsRefused int64     // queued URLs refused by learned rules

	cls *classTx // the URL classes, when the frontier learns (pg_classes.go)
}

// Apply records outcomes, queues entries, stores edges and counts
// refusals, all in one transaction (run again whole after a deadlock).
func (s *PostgresStore) Apply(ctx context.Context, b Batch) (Applied, error) {
	var res Applied
	var hosts map[string]hostInfo
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		a := &pgApply{s: s, ctx: ctx, tx: tx, now: time.Now().UnixMilli(), hosts: map[string]hostInfo{},
			states: map[int64]*hostState{}, counts: map[int64]*pageCount{}, guards: map[string]int64{}, refuse: maps.Clone(b.Refused)}
		if a.refuse == nil {
			a.refuse = map[string]int64{}
		}
		var err error
		res, err = a.apply(b)
		hosts = a.hosts
		return err
	})
	if err != nil {
		return Applied{}, err
	}
	s.mu.Lock()
	for h, hi := range hosts {
		s.hosts[h] = hostInfo{id: hi.id, urls: hi.urls}
	}
	s.mu.Unlock()
	return res, nil
}

func (a *pgApply) apply(b Batch) (Applied, error) {
	var res Applied
	policy := DefaultRetryPolicy()
	if b.Retry != nil {
		policy = *b.Retry
	}
	if err := a.startLearning(); err != nil {
		return res, err
	}
	if err := a.lockHosts(b.Done); err != nil {
		return res, err
	}
	if err := a.lockURLs(b); err != nil {
		return res, err
	}
	for i := range b.Done {
		back, err := a.outcome(&b.Done[i], policy)
		if err != nil {
			return res, err
		}
		if !back {
			res.Done++
		}
	}
	if a.cls != nil {
		if err := a.cls.rerank(); err != nil {
			return res, err
		}
	}
	if err := a.queueAll(b.Queue, b.MaxPerHost, &res); err != nil {
		return res, err
	}
	if res.Refused > 0 {
		a.refuse[GuardMaxPerHost] += int64(res.Refused)
	}
	if err := a.edges(b.Edges); err != nil {
		return res, err
	}
	res.Requeued = int(a.requeued)
	if a.robotsRefused > 0 {
		a.guards[GuardRobots] += a.robotsRefused
	}
	res.Guards = a.guards
	counters := map[string]int64{counterRequeued: a.requeued, counterRedirected: a.redirected.pages,
		counterRedirectedRelevant: a.redirected.relevant}
	for guard, n := range a.guards {
		counters[counterRefused+guard] += n
	}
	for guard, n := range a.refuse {
		counters[counterRefused+guard] += n
	}
	return res, a.flush(counters)
}

// flush writes the URL classes' figures, the host figures and counters,
// each in one order (by class id, by host id, by name), so two
// transactions never wait for each other's rows.
func (a *pgApply) flush(counters map[string]int64) error {
	if a.cls != nil {
		if err := a.cls.save(); err != nil {
			return err
		}
	}
	b := &pgx.Batch{}
	adds := map[int64]int64{} // host id -> URLs added
	for _, hi := range a.hosts {
		if hi.added > 0 {
			adds[hi.id] += hi.added
			a.count(hi.id)
		}
	}
	var ids, urls, fetched, relevant []int64
	for _, id := range slices.Sorted(maps.Keys(a.counts)) {
		c := a.counts[id]
		if adds[id] == 0 && c.pages == 0 && c.relevant == 0 {
			continue
		}
		ids, urls, fetched, relevant = append(ids, id), append(urls, adds[id]), append(fetched, c.pages), append(relevant, c.relevant)
	}
	if len(ids) > 0 {
		// One statement for every host, its rows locked in id order.
		b.Queue(`WITH l AS (SELECT id FROM hosts WHERE id = ANY($1) ORDER BY id FOR UPDATE)
			UPDATE hosts h SET urls = h.urls + x.u, fetched = h.fetched + x.f, relevant = h.relevant + x.r
			FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) AS x(id, u, f, r) JOIN l ON l.id = x.id
			WHERE h.id = x.id`, ids, urls, fetched, relevant)
	}
	for _, name := range slices.Sorted(maps.Keys(counters)) {
		if n := counters[name]; n != 0 {
			b.Queue(`INSERT INTO counters (name, n) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET n = counters.n + excluded.n`, name, n)
		}
	}
	if err := a.tx.SendBatch(a.ctx, b).Close(); err != nil {
		return fmt.Errorf("frontier: host figures and counters: %w", err)
	}
	return nil
}

// count gives the figures to add to a host.
func (a *pgApply) count(hostID int64) *pageCount {
	c := a.counts[hostID]
	if c == nil {
		c = &pageCount{}
		a.counts[hostID] = c
	}
	return c
}

// host returns the id and URL count of host, creating its row if needed.
func (a *pgApply) host(host, site string) (hostInfo, error) {
	if hi, ok := a.hosts[host]; ok {
		return hi, nil
	}
	a.s.mu.Lock()
	hi, ok := a.s.hosts[host]
	a.s.mu.Unlock()
	if ok {
		a.hosts[host] = hi
		return hi, nil
	}
	err := a.tx.QueryRow(a.ctx, `INSERT INTO hosts (host, site) VALUES ($1, $2) ON CONFLICT (host) DO NOTHING RETURNING id, urls`,
		host, site).Scan(&hi.id, &hi.urls)
	if errors.Is(err, pgx.ErrNoRows) {
		// Known already (perhaps made by another worker just now).
		err = a.tx.QueryRow(a.ctx, `SELECT id, urls FROM hosts WHERE host = $1`, host).Scan(&hi.id, &hi.urls)
	}
	if err != nil {
		return hi, fmt.Errorf("frontier: host %s: %w", host, err)
	}
	a.hosts[host] = hi
	return hi, nil
}

// lockURLs locks, in id order and in one statement, the rows of the
// known URLs this transaction may write: those of its outcomes (and their
// redirect targets) and of its entries. Written one at a time in the
// batch's order, as they are below, two workers' applies, or an apply and
// a lease, took the same rows in two orders and each waited for the other
// until PostgreSQL's deadlock check broke one (a second later, and the
// transaction run again). Every statement that locks many URL rows takes
// them in id order (the lease, its reclaim, Renew), so none waits for a
// transaction that waits for it.
func (a *pgApply) lockURLs(b Batch) error {
	keys := make([]pgtype.UUID, 0, len(b.Done)+len(b.Queue))
	key := func(u string) { keys = append(keys, pgtype.UUID{Bytes: pgKey(u), Valid: true}) }
	for i := range b.Done {
		key(b.Done[i].URL)
		if f := b.Done[i].FinalURL; f != "" && f != b.Done[i].URL {
			key(f)
		}
	}
	for i := range b.Queue {
		key(b.Queue[i].URL)
	}
	if len(keys) == 0 {
		return nil
	}
	if _, err := a.tx.Exec(a.ctx, `SELECT 1 FROM urls WHERE k = ANY($1) ORDER BY id FOR UPDATE`, keys); err != nil {
		return fmt.Errorf("frontier: lock URLs: %w", err)
	}
	return nil
}

// markDone records u done (or failed); fresh tells whether it was not
// done or failed before.
func (a *pgApply) markDone(u, host string, o *Outcome) (fresh bool, err error) {
	state := Done
	if o.Error != "" {
		state = Failed
	}
	fetched := o.FetchedAt.UnixMilli()
	if o.FetchedAt.IsZero() {
		fetched = a.now
	}
	var score, relevant any
	if o.Scored {
		score, relevant = o.Score, o.Relevant
	}
	status, errText := nullInt(o.Status), nullString(o.Error)
	k := pgKey(u)
	var hostID int64
	var before State
	var prior float64 // the link priority it was queued with
	var linked bool   // a link led to it (it has a parent)
	for try := 0; ; try++ {
		err = a.tx.QueryRow(a.ctx, `WITH old AS (SELECT id, state FROM urls WHERE k = $1 FOR UPDATE)
			UPDATE urls u SET state = $2, leased_at = NULL, lease_until = NULL, lease_owner = NULL,
			  fetched_at = $3, status = $4, score = $5, relevant = $6, error = $7
			FROM old WHERE u.id = old.id RETURNING u.host_id, old.state, coalesce(u.prior, u.priority), u.parent_id IS NOT NULL`,
			k, state, fetched, status, score, relevant, errText).Scan(&hostID, &before, &prior, &linked)
		if !errors.Is(err, pgx.ErrNoRows) || try > 0 {
			break
		}
		var hi hostInfo
		if hi, err = a.host(host, o.Site); err != nil {
			return false, err
		}
		err = a.tx.QueryRow(a.ctx, `INSERT INTO urls (k, url, host_id, state, depth, added_at, fetched_at, status, score, relevant, error)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (k) DO NOTHING RETURNING host_id`,
			k, u, hi.id, state, o.Depth, a.now, fetched, status, score, relevant, errText).Scan(&hostID)
		if err == nil {
			hi.urls++
			hi.added++
			a.hosts[host] = hi
			before = Queued
			break
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			break
		}
		// Another worker stored it in between: record over its row.
	}
	if err != nil {
		return false, fmt.Errorf("frontier: record %s: %w", u, err)
	}
	if before == Done || before == Failed {
		return false, nil // seen again: the host's figures already count it
	}
	if err := a.learnOutcome(u, hostID, prior, linked, o); err != nil {
		return false, err
	}
	a.count(hostID).add(o)
	return true, nil
}

// edges stores the links between known URLs, in one round trip, in the
// order of their keys: two workers that store the same links (a page
// fetched twice) take their rows in one order.
func (a *pgApply) edges(es []Edge) error {
	if len(es) == 0 {
		return nil
	}
	type keyed struct {
		from, to [16]byte
		e        *Edge
	}
	ks := make([]keyed, len(es))
	for i := range es {
		ks[i] = keyed{pgKey(es[i].From), pgKey(es[i].To), &es[i]}
	}
	slices.SortStableFunc(ks, func(x, y keyed) int {
		if c := bytes.Compare(x.from[:], y.from[:]); c != 0 {
			return c
		}
		return bytes.Compare(x.to[:], y.to[:])
	})
	b := &pgx.Batch{}
	for _, k := range ks {
		e := k.e
		b.Queue(`INSERT INTO edges (src, dst, priority, anchor, context)
			SELECT f.id, t.id, $3, $4, $5 FROM urls f, urls t WHERE f.k = $1 AND t.k = $2 AND f.id <> t.id
			ON CONFLICT (src, dst) DO UPDATE SET priority = greatest(coalesce(edges.priority, 0), excluded.priority),
			  anchor = coalesce(edges.anchor, excluded.anchor), context = coalesce(edges.context, excluded.context)`,
			k.from, k.to, e.Priority, nullString(e.Anchor), nullString(e.Context))
	}
	if err := a.tx.SendBatch(a.ctx, b).Close(); err != nil {
		return fmt.Errorf("frontier: edges: %w", err)
	}
	return nil
}
