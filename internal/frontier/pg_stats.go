package frontier

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Stats summarises the frontier, as the SQLite store does (sqlite_stats.go).
func (s *PostgresStore) Stats(ctx context.Context, q StatsQuery) (*Stats, error) {
	if s.pool == nil {
		return nil, ErrClosed
	}
	st := &Stats{States: map[string]int64{}, Refused: map[string]int64{}}
	for _, state := range []State{Queued, Leased, Done, Failed, Parked, Waiting, Reserve} {
		st.States[state.String()] = 0
	}
	byDepth := map[int]*DepthStat{}
	rows, err := s.query(ctx, sq(`SELECT state, depth, fetched_at IS NULL AND state = {failed}, reserve, count(*), count(*) FILTER (WHERE relevant)
		FROM urls GROUP BY 1, 2, 3, 4`))
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: states: %w", err)
	}
	var state State
	var depth int
	var unfetched, reserve bool
	var n, rel int64
	_, err = pgx.ForEachRow(rows, []any{&state, &depth, &unfetched, &reserve, &n, &rel}, func() error {
		state := state
		if state == Queued && reserve {
			state = Reserve
		}
		st.States[state.String()] += n
		st.Total += n
		d := byDepth[depth]
		if d == nil {
			d = &DepthStat{Depth: depth}
			byDepth[depth] = d
		}
		switch {
		case unfetched:
			st.Unfetched += n
		case state == Done, state == Failed:
			d.Fetched += n
			d.Relevant += rel
			st.Fetched += n
			st.Relevant += rel
			if reserve {
				st.FetchedReserve += n
			}
		case state == Queued:
			d.Queued += n
		case state == Reserve:
			d.Reserve += n
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: states: %w", err)
	}
	for _, d := range byDepth {
		st.Depths = append(st.Depths, *d)
	}
	sort.Slice(st.Depths, func(i, j int) bool { return st.Depths[i].Depth < st.Depths[j].Depth })
	if q.TopHosts > 0 {
		rows, err := s.query(ctx, `SELECT host, urls, fetched, relevant FROM hosts ORDER BY urls DESC, fetched DESC, host LIMIT $1`, q.TopHosts)
		if err != nil {
			return nil, fmt.Errorf("frontier: stats: hosts: %w", err)
		}
		st.TopHosts, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (HostStat, error) {
			var h HostStat
			return h, row.Scan(&h.Host, &h.URLs, &h.Fetched, &h.Relevant)
		})
		if err != nil {
			return nil, fmt.Errorf("frontier: stats: hosts: %w", err)
		}
	}
	if err := s.queryRow(ctx, `SELECT (SELECT count(*) FROM hosts), (SELECT count(*) FROM edges)`).Scan(&st.Hosts, &st.Edges); err != nil {
		return nil, fmt.Errorf("frontier: stats: hosts: %w", err)
	}
	if q.ErrorKinds {
		if st.Errors, err = s.errorKinds(ctx); err != nil {
			return nil, err
		}
	}
	rows, err = s.query(ctx, `SELECT name, n FROM counters`)
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: counters: %w", err)
	}
	var name string
	_, err = pgx.ForEachRow(rows, []any{&name, &n}, func() error {
		if ec, ok := requeuedErrorOf(name, n); ok {
			st.RequeuedErrors = append(st.RequeuedErrors, ec)
			return nil
		}
		switch {
		case name == counterExpired:
			st.Expired = n
		case name == counterRequeued:
			st.Requeued = n
		case name == counterRedirected:
			st.Fetched -= n
		case name == counterRedirectedRelevant:
			st.Relevant -= n
		case strings.HasPrefix(name, counterRefused):
			st.Refused[strings.TrimPrefix(name, counterRefused)] = n
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: counters: %w", err)
	}
	sortErrorCounts(st.RequeuedErrors)
	if st.Fetched > 0 { // after the counters: redirect targets are not pages
		st.HarvestRate = float64(st.Relevant) / float64(st.Fetched)
	}
	if st.ParkedHosts, err = s.parkedHosts(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

// errorKinds counts the failed URLs by kind of error.
func (s *PostgresStore) errorKinds(ctx context.Context) (map[string]int64, error) {
	rows, err := s.query(ctx, sq(`SELECT coalesce(error, ''), count(*) FROM urls WHERE state = {failed} GROUP BY 1`))
	if err != nil {
		return nil, fmt.Errorf("frontier: stats: errors: %w", err)
	}
	errs := errorTally{}
	var msg string
	var n int64
	if _, err = pgx.ForEachRow(rows, []any{&msg, &n}, func() error {
		errs.add(msg, n)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("frontier: stats: errors: %w", err)
	}
	return errs, nil
}

// History calls fn for every URL fetched, in the order fetched.
func (s *PostgresStore) History(ctx context.Context, fn func(Fetched) error) error {
	if s.pool == nil {
		return ErrClosed
	}
	redirect := "false"
	if s.redirect {
		redirect = "u.redirect"
	}
	rows, err := s.query(ctx, sq(`SELECT u.url, h.host, u.depth, coalesce(u.status, 0), coalesce(u.fetched_at, u.added_at),
		u.score, u.relevant, coalesce(u.error, ''), `+redirect+`
		FROM urls u JOIN hosts h ON h.id = u.host_id
		WHERE u.state IN ({done}, {failed}) ORDER BY coalesce(u.fetched_at, u.added_at), u.id`))
	if err != nil {
		return fmt.Errorf("frontier: history: %w", err)
	}
	var f Fetched
	var ms int64
	var score *float64
	var relevant *bool
	_, err = pgx.ForEachRow(rows, []any{&f.URL, &f.Host, &f.Depth, &f.Status, &ms, &score, &relevant, &f.Error, &f.Redirect}, func() error {
		g := f
		g.FetchedAt = time.UnixMilli(ms)
		g.Scored = score != nil
		if score != nil {
			g.Score = *score
		}
		g.Relevant = relevant != nil && *relevant
		if err := fn(g); err != nil {
			return fnError{err}
		}
		return nil
	})
	return wrapUnlessFn(err, "history")
}

// AddedPerSecond counts the URLs of the frontier by the second (Unix
// time) they were added, for the queue over time of seed report.
func (s *PostgresStore) AddedPerSecond(ctx context.Context) (map[int64]int64, error) {
	if s.pool == nil {
		return nil, ErrClosed
	}
	rows, err := s.query(ctx, `SELECT added_at / 1000, count(*) FROM urls GROUP BY 1`)
	if err != nil {
		return nil, fmt.Errorf("frontier: added: %w", err)
	}
	out := map[int64]int64{}
	var sec, n int64
	if _, err := pgx.ForEachRow(rows, []any{&sec, &n}, func() error {
		out[sec] = n
		return nil
	}); err != nil {
		return nil, fmt.Errorf("frontier: added: %w", err)
	}
	return out, nil
}

// fnError carries an error of a caller's function through pgx.ForEachRow
// unwrapped.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

// wrapUnlessFn wraps a store error with what failed; an error from the
// caller's function is returned as it is (ForEachRow returns it so).
func wrapUnlessFn(err error, what string) error {
	if err == nil {
		return nil
	}
	if fe, ok := err.(fnError); ok {
		return fe.err
	}
	return fmt.Errorf("frontier: %s: %w", what, err)
}

// Info returns what the crawl's commands recorded about it, with the
// schema version.
func (s *PostgresStore) Info(ctx context.Context) (map[string]string, error) {
	if s.pool == nil {
		return nil, ErrClosed
	}
	rows, err := s.query(ctx, `SELECT key, value FROM info`)
	if err != nil {
		return nil, fmt.Errorf("frontier: info: %w", err)
	}
	info := map[string]string{}
	var k, v string
	if _, err := pgx.ForEachRow(rows, []any{&k, &v}, func() error {
		info[k] = v
		return nil
	}); err != nil {
		return nil, fmt.Errorf("frontier: info: %w", err)
	}
	return info, nil
}

// SetInfo records facts about the crawl (key → value) in one
// transaction, replacing earlier values of the same keys.
func (s *PostgresStore) SetInfo(ctx context.Context, kv map[string]string) error {
	for k := range kv {
		if k == "schema_version" {
			return fmt.Errorf("frontier: set info: %q is the store's own key", k)
		}
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		keys := make([]string, 0, len(kv))
		for k := range kv {
			keys = append(keys, k)
		}
		sort.Strings(keys) // one order: two writers never deadlock
		for _, k := range keys {
			if _, err := tx.Exec(ctx, `INSERT INTO info (key, value) VALUES ($1, $2)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, k, kv[k]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("frontier: set info: %w", err)
	}
	return nil
}

// State tells where url is in the frontier (false when it is not known):
// a queued URL of the reserve is in state Reserve, and a lease that has
// run out reads as queued, as the next lease call will make it (as on
// Redis).
func (s *PostgresStore) State(ctx context.Context, u string) (State, bool, error) {
	if s.pool == nil {
		return 0, false, ErrClosed
	}
	var st State
	var reserve bool
	err := s.queryRow(ctx, sq(`SELECT CASE WHEN state = {leased} AND lease_until <= $2 THEN {queued} ELSE state END, reserve
		FROM urls WHERE k = $1`), pgKey(u), time.Now().UnixMilli()).Scan(&st, &reserve)
	if err == pgx.ErrNoRows {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("frontier: state of %s: %w", u, err)
	}
	if st == Queued && reserve {
		st = Reserve
	}
	return st, true, nil
}
