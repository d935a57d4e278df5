package frontier

import (
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Apply's queueing of new entries on PostgreSQL. Each entry is one
// statement (insert, or raise a known URL), and the statements go to the
// server in one round trip (a pgx batch): that is what makes seed add
// fast. Entries of a host near Batch.MaxPerHost wait for the answers
// before them, so the bound is kept exactly as on SQLite.

// pgInsertURL queues a new URL or, when it is known, raises it as the
// SQLite store's raiseURL does; it returns (id, true) for a new URL,
// (id, false) for one raised, and no row for one left as it was.
var pgInsertURL = sq(`INSERT INTO urls AS u (k, url, host_id, state, priority, depth, parent_id, anchor, inherited, meta, added_at, reserve)
	VALUES ($1, $2, $3, $4, $5, $6, (SELECT p.id FROM urls p WHERE p.k = $7), $8, $9, $10, $11, $12)
	ON CONFLICT (k) DO UPDATE SET
	  depth     = CASE WHEN u.state IN ({queued}, {leased}) THEN least(u.depth, excluded.depth) ELSE u.depth END,
	  priority  = CASE WHEN u.state IN ({queued}, {leased}) AND excluded.priority > u.priority THEN excluded.priority ELSE u.priority END,
	  parent_id = CASE WHEN u.state IN ({queued}, {leased}) AND excluded.priority > u.priority THEN excluded.parent_id ELSE u.parent_id END,
	  anchor    = CASE WHEN u.state IN ({queued}, {leased}) AND excluded.priority > u.priority THEN excluded.anchor ELSE u.anchor END,
	  inherited = CASE WHEN u.state IN ({queued}, {leased}) AND excluded.priority > u.priority THEN excluded.inherited ELSE u.inherited END,
	  reserve   = u.reserve AND excluded.reserve
	WHERE (u.state IN ({queued}, {leased}) AND (excluded.priority > u.priority OR excluded.depth < u.depth))
	  OR (u.reserve AND NOT excluded.reserve AND u.state IN ({queued}, {leased}, {parked}, {waiting}))
	RETURNING u.id, xmax = 0`)

// pgRaiseURL raises a known URL of a host that is full: it answers
// whether the URL is known, and whether it was raised.
var pgRaiseURL = sq(`WITH old AS (SELECT id FROM urls WHERE k = $1),
	up AS (UPDATE urls u SET
	  depth     = CASE WHEN u.state IN ({queued}, {leased}) THEN least(u.depth, $3) ELSE u.depth END,
	  priority  = CASE WHEN u.state IN ({queued}, {leased}) AND $2 > u.priority THEN $2 ELSE u.priority END,
	  parent_id = CASE WHEN u.state IN ({queued}, {leased}) AND $2 > u.priority THEN (SELECT p.id FROM urls p WHERE p.k = $4) ELSE u.parent_id END,
	  anchor    = CASE WHEN u.state IN ({queued}, {leased}) AND $2 > u.priority THEN $5 ELSE u.anchor END,
	  inherited = CASE WHEN u.state IN ({queued}, {leased}) AND $2 > u.priority THEN $6 ELSE u.inherited END,
	  reserve   = u.reserve AND $7
	FROM old WHERE u.id = old.id AND ((u.state IN ({queued}, {leased}) AND ($2 > u.priority OR $3 < u.depth))
	  OR (u.reserve AND NOT $7 AND u.state IN ({queued}, {leased}, {parked}, {waiting})))
	RETURNING u.id)
	SELECT EXISTS (SELECT 1 FROM old), EXISTS (SELECT 1 FROM up)`)

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

func (a *pgApply) queueAll(es []Entry, maxPerHost int64, res *Applied) error {
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
	for i := range es {
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
		if maxPerHost > 0 && hi.urls >= maxPerHost {
			// The host is full: only a URL already known may be improved.
			b.Queue(pgRaiseURL, pgKey(e.URL), e.Priority, e.Depth, parent, nullString(e.Anchor), nullFloat(e.Inherited), e.Reserve)
			pending = append(pending, pgPending{e: e, kind: pgRaiseOnly})
			continue
		}
		var meta any
		if len(e.Meta) > 0 && string(e.Meta) != "null" {
			meta = string(e.Meta)
		}
		b.Queue(pgInsertURL, pgKey(e.URL), e.URL, hi.id, state, e.Priority, e.Depth, parent, nullString(e.Anchor),
			nullFloat(e.Inherited), meta, a.now, e.Reserve)
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
