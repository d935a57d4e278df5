package frontier

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Stats summarises the frontier: URLs per state, the harvest rate
// (relevant / fetched), pages per depth, refusals per guard and expired
// leases, with the top hosts and the error kinds that q asks for.
func (s *SQLiteStore) Stats(ctx context.Context, q StatsQuery) (*Stats, error) {
	if s.db == nil {
		return nil, ErrClosed
	}
	st := &Stats{States: map[string]int64{}, Refused: map[string]int64{}}
	for _, state := range []State{Queued, Leased, Done, Failed, Parked, Waiting, Reserve} {
		st.States[state.String()] = 0
	}
	each := func(what, query string, scan func(func(...any) error) error, args ...any) error {
		rows, err := s.db.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("frontier: stats: %s: %w", what, err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows.Scan); err != nil {
				return fmt.Errorf("frontier: stats: %s: %w", what, err)
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("frontier: stats: %s: %w", what, err)
		}
		return nil
	}
	byDepth := map[int]*DepthStat{}
	// A failed URL without a fetch time was never fetched: refused by
	// robots.txt rules learned later, or held by a host given up.
	// A queued URL of the reserve counts as state Reserve.
	err := each("states", sq(`SELECT state, depth, fetched_at IS NULL AND state = {failed}, reserve, count(*), coalesce(sum(relevant = 1), 0)
		FROM urls GROUP BY 1, 2, 3, 4`),
		func(scan func(...any) error) error {
			var state State
			var depth int
			var unfetched, reserve bool
			var n, rel int64
			if err := scan(&state, &depth, &unfetched, &reserve, &n, &rel); err != nil {
				return err
			}
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
		return nil, err
	}
	for _, d := range byDepth {
		st.Depths = append(st.Depths, *d)
	}
	sort.Slice(st.Depths, func(i, j int) bool { return st.Depths[i].Depth < st.Depths[j].Depth })
	if q.TopHosts > 0 {
		err = each("hosts", `SELECT host, urls, fetched, relevant FROM hosts ORDER BY urls DESC, fetched DESC, host LIMIT ?`,
			func(scan func(...any) error) error {
				var h HostStat
				if err := scan(&h.Host, &h.URLs, &h.Fetched, &h.Relevant); err != nil {
					return err
				}
				st.TopHosts = append(st.TopHosts, h)
				return nil
			}, q.TopHosts)
		if err != nil {
			return nil, err
		}
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM hosts`).Scan(&st.Hosts); err != nil {
		return nil, fmt.Errorf("frontier: stats: hosts: %w", err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM edges`).Scan(&st.Edges); err != nil {
		return nil, fmt.Errorf("frontier: stats: edges: %w", err)
	}
	if q.ErrorKinds {
		errs := errorTally{}
		err = each("errors", sq(`SELECT coalesce(error, ''), count(*) FROM urls WHERE state = {failed} GROUP BY 1`),
			func(scan func(...any) error) error {
				var msg string
				var n int64
				if err := scan(&msg, &n); err != nil {
					return err
				}
				errs.add(msg, n)
				return nil
			})
		if err != nil {
			return nil, err
		}
		st.Errors = errs
	}
	err = each("counters", `SELECT name, n FROM counters`, func(scan func(...any) error) error {
		var name string
		var n int64
		if err := scan(&name, &n); err != nil {
			return err
		}
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
		return nil, err
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
