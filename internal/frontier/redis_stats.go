package frontier

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// statField is a field of keyStats as read: its name, or for a field of
// a depth its prefix (stInState, stUnfetched, stRelevant), and then its
// depth and, for stInState, its state.
type statField struct {
	name  string
	state State
	depth int
}

// readStatField reads a field of keyStats; one of an unknown name, or
// with a state or depth that is not a number, has name "".
func readStatField(k string) statField {
	for _, prefix := range []string{stUnfetched, stRelevant, stInState} {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		f := statField{name: prefix}
		if prefix == stInState {
			state, d, ok := strings.Cut(rest, stSep)
			s, err := strconv.Atoi(state)
			if !ok || err != nil {
				return statField{}
			}
			f.state, rest = State(s), d
		}
		d, err := strconv.Atoi(rest)
		if err != nil {
			return statField{}
		}
		f.depth = d
		return f
	}
	return statField{name: k}
}

// Stats summarises the frontier from the counters the scripts keep, so
// its counts cost the same at any size. The lists q asks for cost more:
// the top hosts read one hash per figure, the error kinds every failed
// URL's record.
func (s *RedisStore) Stats(ctx context.Context, q StatsQuery) (*Stats, error) {
	if s.rdb == nil {
		return nil, ErrClosed
	}
	st := &Stats{States: map[string]int64{}, Refused: map[string]int64{}}
	for _, state := range []State{Queued, Leased, Done, Failed, Parked, Waiting, Reserve} {
		st.States[state.String()] = 0
	}
	pipe := s.rdb.Pipeline()
	counts := pipe.HGetAll(ctx, s.key(keyStats))
	counters := pipe.HGetAll(ctx, s.key(keyCounters))
	hosts := pipe.HLen(ctx, s.key(keyHostSite))
	edges := pipe.HLen(ctx, s.key(keyEdges))
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("frontier: stats: %w", err)
	}
	byDepth := map[int]*DepthStat{}
	depth := func(d int) *DepthStat {
		if byDepth[d] == nil {
			byDepth[d] = &DepthStat{Depth: d}
		}
		return byDepth[d]
	}
	for k, v := range counts.Val() {
		n, _ := strconv.ParseInt(v, 10, 64)
		if n == 0 {
			continue
		}
		f := readStatField(k)
		switch f.name {
		case stInState:
			st.States[f.state.String()] += n
			st.Total += n
			depth(f.depth) // every depth holding URLs is listed, as by the SQLite store
			switch f.state {
			case Done, Failed:
				depth(f.depth).Fetched += n
				st.Fetched += n
			case Queued:
				depth(f.depth).Queued += n
			case Reserve:
				depth(f.depth).Reserve += n
			}
		case stUnfetched:
			depth(f.depth).Fetched -= n
			st.Fetched -= n
			st.Unfetched += n
		case stRelevant:
			depth(f.depth).Relevant += n
			st.Relevant += n
		case stRedirects: // redirect targets: done, not pages of their own
			st.Fetched -= n
		case stRedirectsRel:
			st.Relevant -= n
		case stFromReserve:
			st.FetchedReserve += n
		}
	}
	for _, d := range byDepth {
		st.Depths = append(st.Depths, *d)
	}
	sort.Slice(st.Depths, func(i, j int) bool { return st.Depths[i].Depth < st.Depths[j].Depth })
	if st.Fetched > 0 {
		st.HarvestRate = float64(st.Relevant) / float64(st.Fetched)
	}
	for name, v := range counters.Val() {
		n, _ := strconv.ParseInt(v, 10, 64)
		if ec, ok := requeuedErrorOf(name, n); ok {
			st.RequeuedErrors = append(st.RequeuedErrors, ec)
			continue
		}
		switch {
		case name == counterExpired:
			st.Expired = n
		case name == counterRequeued:
			st.Requeued = n
		case strings.HasPrefix(name, counterRefused):
			st.Refused[strings.TrimPrefix(name, counterRefused)] = n
		}
	}
	sortErrorCounts(st.RequeuedErrors)
	st.Hosts, st.Edges = hosts.Val(), edges.Val()
	if q.ErrorKinds {
		errs, err := s.errorKinds(ctx)
		if err != nil {
			return nil, err
		}
		st.Errors = errs
	}
	parked, err := s.parkedHosts(ctx)
	if err != nil {
		return nil, err
	}
	st.ParkedHosts = parked
	if q.TopHosts > 0 {
		top, err := s.topHosts(ctx, q.TopHosts)
		if err != nil {
			return nil, err
		}
		st.TopHosts = top
	}
	return st, nil
}

// errorKinds counts the failed URLs by kind of error, from the set of
// failed URLs: the one figure of Stats that reads URL records (one per
// failed URL), not counters.
func (s *RedisStore) errorKinds(ctx context.Context) (map[string]int64, error) {
	errs := errorTally{}
	for cursor := "0"; ; {
		next, rows, err := s.failedPage(ctx, cursor)
		if err != nil {
			return nil, fmt.Errorf("frontier: stats: errors: %w", err)
		}
		cursor = next
		for _, row := range rows {
			msg := row.str(failErr)
			if row.err != nil {
				return nil, fmt.Errorf("frontier: stats: errors: %w", row.err)
			}
			errs.add(msg, 1)
		}
		if cursor == "0" {
			return errs, nil
		}
	}
}

// topHosts ranks hosts as the SQLite store does: most URLs, then most
// fetched, then by name.
func (s *RedisStore) topHosts(ctx context.Context, n int) ([]HostStat, error) {
	pipe := s.rdb.Pipeline()
	urls := pipe.HGetAll(ctx, s.key(keyHostURLs))
	fetched := pipe.HGetAll(ctx, s.key(keyHostFetched))
	rel := pipe.HGetAll(ctx, s.key(keyHostRelevant))
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("frontier: stats: hosts: %w", err)
	}
	atoi := func(m map[string]string, k string) int64 {
		v, _ := strconv.ParseInt(m[k], 10, 64)
		return v
	}
	var hs []HostStat
	for h := range urls.Val() {
		hs = append(hs, HostStat{Host: h, URLs: atoi(urls.Val(), h), Fetched: atoi(fetched.Val(), h), Relevant: atoi(rel.Val(), h)})
	}
	sort.Slice(hs, func(i, j int) bool {
		a, b := hs[i], hs[j]
		if a.URLs != b.URLs {
			return a.URLs > b.URLs
		}
		if a.Fetched != b.Fetched {
			return a.Fetched > b.Fetched
		}
		return a.Host < b.Host
	})
	if len(hs) > n {
		hs = hs[:n]
	}
	return hs, nil
}
