package frontier

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/focuscrawl/focuscrawl/internal/robotsrules"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// Apply's queueing of new entries on PostgreSQL: URLs that may be new in
// one bulk insert, the others one statement each (insert, or raise a
// known URL) sent in one round trip (a pgx batch). Entries of a host near
// Batch.MaxPerHost wait for the answers before them, so the bound is kept
// exactly as on SQLite.

// pgInsertURL queues a new URL or, when it is known, raises it as the
// SQLite store's raiseURL does; it returns (id, true) for a new URL,
// (id, false) for one raised, and no row for one left as it was. When the
// frontier learns, $13 is the link priority, $14 the URL's class and $5
// their blend (pgBetter).
var pgInsertURL = sq(strings.ReplaceAll(`INSERT INTO urls AS u (k, url, host_id, state, priority, depth, parent_id, anchor, inherited, meta, added_at, reserve, prior, class_id)
	VALUES ($1, $2, $3, $4, $5, $6, (SELECT p.id FROM urls p WHERE p.k = $7), $8, $9, $10, $11, $12, $13, $14)
	ON CONFLICT (k) DO UPDATE SET
	  depth     = CASE WHEN u.state IN ({queued}, {leased}) THEN least(u.depth, excluded.depth) ELSE u.depth END,
	  priority  = CASE WHEN {better} THEN excluded.priority ELSE u.priority END,
	  parent_id = CASE WHEN {better} THEN excluded.parent_id ELSE u.parent_id END,
	  anchor    = CASE WHEN {better} THEN excluded.anchor ELSE u.anchor END,
	  inherited = CASE WHEN {better} THEN excluded.inherited ELSE u.inherited END,
	  class_id  = CASE WHEN {better} THEN coalesce(u.class_id, excluded.class_id) ELSE u.class_id END,
	  prior     = CASE WHEN {better} THEN coalesce(excluded.prior, u.prior) ELSE u.prior END,
	  reserve   = u.reserve AND excluded.reserve
	WHERE ({better} OR (u.state IN ({queued}, {leased}) AND excluded.depth < u.depth))
	  OR (u.reserve AND NOT excluded.reserve AND u.state IN ({queued}, {leased}, {parked}, {waiting}))
	RETURNING u.id, xmax = 0`, "{better}", pgBetter("excluded.priority", "excluded.prior", "excluded.class_id")))

// pgRaiseURL raises a known URL of a host that is full: it answers
// whether the URL is known, and whether it was raised. $8 and $9 are the
// link priority and class when the frontier learns, $2 their blend.
var pgRaiseURL = sq(strings.ReplaceAll(`WITH old AS (SELECT id FROM urls WHERE k = $1),
	up AS (UPDATE urls u SET
	  depth     = CASE WHEN u.state IN ({queued}, {leased}) THEN least(u.depth, $3) ELSE u.depth END,
	  priority  = CASE WHEN {better} THEN $2 ELSE u.priority END,
	  parent_id = CASE WHEN {better} THEN (SELECT p.id FROM urls p WHERE p.k = $4) ELSE u.parent_id END,
	  anchor    = CASE WHEN {better} THEN $5 ELSE u.anchor END,
	  inherited = CASE WHEN {better} THEN $6 ELSE u.inherited END,
	  class_id  = CASE WHEN {better} THEN coalesce(u.class_id, $9::bigint) ELSE u.class_id END,
	  prior     = CASE WHEN {better} THEN coalesce($8::float8, u.prior) ELSE u.prior END,
	  reserve   = u.reserve AND $7
	FROM old WHERE u.id = old.id AND (({better} OR (u.state IN ({queued}, {leased}) AND $3 < u.depth))
	  OR (u.reserve AND NOT $7 AND u.state IN ({queued}, {leased}, {parked}, {waiting})))
	RETURNING u.id)
	SELECT EXISTS (SELECT 1 FROM old), EXISTS (SELECT 1 FROM up)`, "{better}", pgBetter("$2::float8", "$8::float8", "$9::bigint")))

// pgBetter is the test of a new sighting of a queued or leased URL u
// against what it was queued with: a higher priority; when the frontier
// learns (class not NULL), a higher link priority (prior) than u's, whose
// priority is its own blend (as the SQLite store's raiseLearned).
func pgBetter(priority, prior, class string) string {
	return fmt.Sprintf(`(u.state IN ({queued}, {leased}) AND coalesce(%s, %s) > CASE WHEN %s IS NULL THEN u.priority ELSE coalesce(u.prior, u.priority) END)`,
		prior, priority, class)
}

// pgPending is an entry whose statement is in the batch.
type pgPending struct {
	e    *Entry
	kind int // pgInsert, pgRaiseOnly, pgGuarded
	// guard is the refusal of a guarded entry (it is counted unless the
	// URL is known).
	guard string
}

const (
	pgInsert = iota
	pgRaiseOnly
	pgGuarded
)

// pgBulkInsert queues, in one statement, URLs not seen before in the
// batch, in the order given (ids follow it, as lease order breaks ties
// by age); it returns the keys of those that were not known. A seed has
// no parent to look up (the CASE spares the index probe of each row). $13
// and $14, the link priorities and classes of a frontier that learns, are
// NULL (none) when it does not.
var pgBulkInsert = pgBulkRows + ` ON CONFLICT (k) DO NOTHING RETURNING k`

// pgBulkInsertNew is pgBulkInsert for URLs that all seem new (none of the
// last bulk insert's was known: seed add of a seed list): a plain insert
// spares the server the speculative insertion of ON CONFLICT; a URL known
// after all fails it (unique violation), and the batch is inserted again
// the other way.
var pgBulkInsertNew = pgBulkRows

// pgFreshBulk is the least bulk insert tried as all new: a failed try
// costs the rows inserted before the known one.
const pgFreshBulk = 1000

const pgBulkRows = `INSERT INTO urls (k, url, host_id, state, priority, depth, parent_id, anchor, inherited, meta, added_at, reserve, prior, class_id)
	SELECT x.k, x.url, x.host_id, x.state, x.priority, x.depth, CASE WHEN x.pk IS NOT NULL THEN (SELECT p.id FROM urls p WHERE p.k = x.pk) END,
	  x.anchor, x.inherited, x.meta, $12, x.reserve,
	  x.prior, x.class_id
	FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::smallint[], $5::float8[], $6::int[], $7::uuid[], $8::text[], $9::float8[], $10::text[], $11::bool[],
	  $13::float8[], $14::bigint[])
	  WITH ORDINALITY AS x(k, url, host_id, state, priority, depth, pk, anchor, inherited, meta, reserve, prior, class_id, n)
	ORDER BY x.n`

// queueAll queues the entries: first the URLs that may be new, in one
// bulk insert (the common case of seed add, and the fast one); then,
// entry by entry in one round trip, those the insert found known, the
// ones seen twice in the batch, those whose parent is queued in it, and
// those the host's state or Batch.MaxPerHost may refuse. The result is
// the one queueing them one by one in order would give.
func (a *pgApply) queueAll(es []Entry, maxPerHost int64, res *Applied) error {
	if err := a.loadHosts(es); err != nil {
		return err
	}
	seen := make(map[string]bool, len(es))
	taken := map[string]int64{} // host -> bulk inserts
	var bulk, rest []int
	for i := range es {
		e := &es[i]
		hi, err := a.host(e.Host, e.Site)
		if err != nil {
			return err
		}
		_, guard, err := a.admit(hi.id, e.URL)
		if err != nil {
			return err
		}
		if guard == "" && !seen[e.URL] && (e.Parent == "" || !seen[e.Parent]) && (maxPerHost <= 0 || hi.urls+taken[e.Host] < maxPerHost) {
			bulk = append(bulk, i)
			taken[e.Host]++
		} else {
			rest = append(rest, i)
		}
		seen[e.URL] = true
	}
	if len(bulk) > 0 {
		known, err := a.bulkInsert(es, bulk, res)
		if err != nil {
			return err
		}
		if len(known) > 0 {
			rest = append(rest, known...)
			slices.Sort(rest)
		}
	}
	return a.queueEach(es, rest, maxPerHost, res)
}

// loadHosts reads (making the missing ones) the hosts of the entries and
// their state in three statements, where one query per host cost a round
// trip each.
func (a *pgApply) loadHosts(es []Entry) error {
	var names, sites []string
	a.s.mu.Lock()
	for i := range es {
		h := es[i].Host
		if _, ok := a.hosts[h]; ok {
			continue
		}
		if hi, ok := a.s.hosts[h]; ok {
			a.hosts[h] = hi
			continue
		}
		a.hosts[h] = hostInfo{id: -1} // listed once; read below
		names, sites = append(names, h), append(sites, es[i].Site)
	}
	a.s.mu.Unlock()
	if len(names) > 0 {
		if _, err := a.tx.Exec(a.ctx, `INSERT INTO hosts (host, site) SELECT h, s FROM unnest($1::text[], $2::text[]) AS x(h, s) ORDER BY h
			ON CONFLICT (host) DO NOTHING`, names, sites); err != nil {
			return fmt.Errorf("frontier: hosts: %w", err)
		}
		rows, err := a.tx.Query(a.ctx, `SELECT host, id, urls FROM hosts WHERE host = ANY($1)`, names)
		if err != nil {
			return fmt.Errorf("frontier: hosts: %w", err)
		}
		var h string
		var hi hostInfo
		if _, err := pgx.ForEachRow(rows, []any{&h, &hi.id, &hi.urls}, func() error {
			a.hosts[h] = hi
			return nil
		}); err != nil {
			return fmt.Errorf("frontier: hosts: %w", err)
		}
		for _, h := range names {
			if a.hosts[h].id < 0 {
				return fmt.Errorf("frontier: host %s: not stored", h)
			}
		}
	}
	var ids []int64
	for i := range es {
		id := a.hosts[es[i].Host].id
		if _, ok := a.states[id]; !ok {
			a.states[id] = &hostState{}
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := a.tx.Query(a.ctx, `SELECT host_id, `+pgHostColumns+` FROM host_state WHERE host_id = ANY($1)`, ids)
	if err != nil {
		return fmt.Errorf("frontier: host state: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		hs := &hostState{}
		var robots, agent string
		if err := rows.Scan(&id, &hs.Mode, &hs.Reason, &hs.Since, &hs.RetryAt, &hs.Wait, &hs.Tries, &hs.Timeouts, &hs.probeID, &robots, &agent); err != nil {
			return fmt.Errorf("frontier: host state: %w", err)
		}
		hs.known = true
		if robots != "" {
			hs.rules, _ = robotsrules.New(agent, robots)
		}
		a.states[id] = hs
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("frontier: host state: %w", err)
	}
	return nil
}

// bulkInsert inserts the entries at idx; it gives back those it found
// known, for queueEach to raise.
func (a *pgApply) bulkInsert(es []Entry, idx []int, res *Applied) (known []int, err error) {
	n := len(idx)
	keys, parents := make([]pgtype.UUID, n), make([]pgtype.UUID, n)
	urls, anchors, metas := make([]string, n), make([]*string, n), make([]*string, n)
	hosts, depths := make([]int64, n), make([]int32, n)
	states := make([]int16, n)
	prios, inherited := make([]float64, n), make([]*float64, n)
	reserve := make([]bool, n)
	var priors []*float64
	var classes []*int64
	if a.cls != nil {
		priors, classes = make([]*float64, n), make([]*int64, n)
	}
	for j, i := range idx {
		e := &es[i]
		hi := a.hosts[e.Host]
		state, _, err := a.admit(hi.id, e.URL)
		if err != nil {
			return nil, err
		}
		keys[j] = pgtype.UUID{Bytes: pgKey(e.URL), Valid: true}
		if e.Parent != "" {
			parents[j] = pgtype.UUID{Bytes: pgKey(e.Parent), Valid: true}
		}
		urls[j], hosts[j], states[j], prios[j], depths[j], reserve[j] = e.URL, hi.id, int16(state), e.Priority, int32(e.Depth), e.Reserve
		if a.cls != nil {
			if prios[j], priors[j], classes[j], err = a.learned(e, hi.id); err != nil {
				return nil, err
			}
		}
		if e.Anchor != "" {
			anchors[j] = &e.Anchor
		}
		if e.Inherited != 0 {
			inherited[j] = &e.Inherited
		}
		if m := entryMeta(e); m != "" {
			metas[j] = &m
		}
	}
	args := []any{keys, urls, hosts, states, prios, depths, parents, anchors, inherited, metas, reserve, a.now, priors, classes}
	var fresh map[[16]byte]bool // nil: every one inserted
	allNew := false
	if n >= pgFreshBulk && a.s.bulkFresh.Load() {
		if allNew, err = a.insertAllNew(args); err != nil {
			return nil, err
		}
	}
	if !allNew {
		rows, err := a.tx.Query(a.ctx, pgBulkInsert, args...)
		if err != nil {
			return nil, fmt.Errorf("frontier: queue: %w", err)
		}
		inserted, err := pgx.CollectRows(rows, pgx.RowTo[[16]byte])
		if err != nil {
			return nil, fmt.Errorf("frontier: queue: %w", err)
		}
		a.s.bulkFresh.Store(len(inserted) == n)
		fresh = make(map[[16]byte]bool, len(inserted))
		for _, k := range inserted {
			fresh[k] = true
		}
	}
	for j, i := range idx {
		e := &es[i]
		if fresh != nil && !fresh[keys[j].Bytes] {
			known = append(known, i)
			continue
		}
		res.Queued++
		if e.Reserve {
			res.Reserved++
		}
		hi := a.hosts[e.Host]
		hi.urls++
		hi.added++
		a.hosts[e.Host] = hi
	}
	return known, nil
}

// queueEach queues the entries at idx one statement each, in one round
// trip where Batch.MaxPerHost allows.
func (a *pgApply) queueEach(es []Entry, idx []int, maxPerHost int64, res *Applied) error {
	b := &pgx.Batch{}
	var pending []pgPending
	inFlight := map[string]int64{} // host -> inserts in the batch
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		br := a.tx.SendBatch(a.ctx, b)
		for _, p := range pending {
			if err := a.queued(br, p, res); err != nil {
				br.Close()
				return err
			}
		}
		if err := br.Close(); err != nil {
			return fmt.Errorf("frontier: queue: %w", err)
		}
		b, pending = &pgx.Batch{}, pending[:0]
		clear(inFlight)
		return nil
	}
	for _, i := range idx {
		e := &es[i]
		hi, err := a.host(e.Host, e.Site)
		if err != nil {
			return err
		}
		state, guard, err := a.admit(hi.id, e.URL)
		if err != nil {
			return err
		}
		if guard != "" {
			b.Queue(`SELECT EXISTS (SELECT 1 FROM urls WHERE k = $1)`, pgKey(e.URL))
			pending = append(pending, pgPending{e: e, kind: pgGuarded, guard: guard})
			continue
		}
		var parent any
		if e.Parent != "" {
			parent = pgKey(e.Parent)
		}
		if maxPerHost > 0 && inFlight[e.Host] > 0 && hi.urls+inFlight[e.Host] >= maxPerHost {
			// The host may be full once the answers are in: wait for them.
			if err := flush(); err != nil {
				return err
			}
			hi = a.hosts[e.Host]
		}
		priority, prior, class, err := a.learned(e, hi.id)
		if err != nil {
			return err
		}
		if maxPerHost > 0 && hi.urls >= maxPerHost {
			// The host is full: only a URL already known may be improved.
			b.Queue(pgRaiseURL, pgKey(e.URL), priority, e.Depth, parent, nullString(e.Anchor), nullFloat(e.Inherited), e.Reserve, prior, class)
			pending = append(pending, pgPending{e: e, kind: pgRaiseOnly})
			continue
		}
		b.Queue(pgInsertURL, pgKey(e.URL), e.URL, hi.id, state, priority, e.Depth, parent, nullString(e.Anchor),
			nullFloat(e.Inherited), nullString(entryMeta(e)), a.now, e.Reserve, prior, class)
		pending = append(pending, pgPending{e: e, kind: pgInsert})
		inFlight[e.Host]++
	}
	return flush()
}

// queued reads the answer of one entry's statement and counts it.
func (a *pgApply) queued(br pgx.BatchResults, p pgPending, res *Applied) error {
	switch p.kind {
	case pgGuarded:
		var known bool
		if err := br.QueryRow().Scan(&known); err != nil {
			return fmt.Errorf("frontier: queue %s: %w", p.e.URL, err)
		}
		if known {
			res.Known++
		} else {
			a.guards[p.guard]++
		}
	case pgRaiseOnly:
		var known, raised bool
		if err := br.QueryRow().Scan(&known, &raised); err != nil {
			return fmt.Errorf("frontier: queue %s: %w", p.e.URL, err)
		}
		switch {
		case raised:
			res.Raised++
		case known:
			res.Known++
		default:
			res.Refused++
		}
	default:
		var id int64
		var inserted bool
		err := br.QueryRow().Scan(&id, &inserted)
		switch {
		case err == pgx.ErrNoRows:
			res.Known++
		case err != nil:
			return fmt.Errorf("frontier: queue %s: %w", p.e.URL, err)
		case !inserted:
			res.Raised++
		default:
			res.Queued++
			if p.e.Reserve {
				res.Reserved++
			}
			hi := a.hosts[p.e.Host]
			hi.urls++
			hi.added++
			a.hosts[p.e.Host] = hi
		}
	}
	return nil
}

// insertAllNew inserts a bulk whose URLs seem all new (pgBulkInsertNew)
// under a savepoint; it reports false, having inserted none, when one was
// known.
func (a *pgApply) insertAllNew(args []any) (bool, error) {
	sp, err := a.tx.Begin(a.ctx)
	if err != nil {
		return false, fmt.Errorf("frontier: queue: %w", err)
	}
	if _, err := sp.Exec(a.ctx, pgBulkInsertNew, args...); err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "23505" /* unique_violation */ {
			return false, fmt.Errorf("frontier: queue: %w", err)
		}
		a.s.bulkFresh.Store(false)
		if err := sp.Rollback(a.ctx); err != nil {
			return false, fmt.Errorf("frontier: queue: %w", err)
		}
		return false, nil
	}
	if err := sp.Commit(a.ctx); err != nil {
		return false, fmt.Errorf("frontier: queue: %w", err)
	}
	return true, nil
}
