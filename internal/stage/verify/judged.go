package verify

import (
	"fmt"
	"io"

	"github.com/focuscrawl/focuscrawl/internal/jsonl"
	"github.com/focuscrawl/focuscrawl/internal/record"
	"github.com/focuscrawl/focuscrawl/internal/siteverify"
)

// ReadJudged reads verdict files and returns the sites they judged: those
// with a verdict without an error. A site whose verdict is canceled (the
// run was interrupted) or failed (its start page could not be fetched) is
// verified again, so that a re-run finishes an interrupted one and retries
// what a network fault or a missing proxy spoiled.
func ReadJudged(paths []string) (map[string]bool, error) {
	judged := map[string]bool{}
	if len(paths) == 0 {
		return judged, nil
	}
	r := jsonl.NewReader(paths, nil)
	defer r.Close()
	for {
		l, err := r.Next()
		if err == io.EOF {
			return judged, nil
		}
		if err != nil {
			return nil, err
		}
		var v record.Verdict
		if err := jsonl.Decode(l.Bytes, &v); err != nil || v.Site == "" {
			return nil, fmt.Errorf("%s:%d: not a verdict record", l.Name, l.Num)
		}
		if v.Error == "" {
			judged[v.Site] = true
		}
	}
}

// skipJudged wraps the grouper's Add: URLs of judged sites are dropped and
// their sites counted once.
func (r *runner) skipJudged(scope string, judged map[string]bool, add func(record.URL) error) func(record.URL) error {
	if len(judged) == 0 {
		return add
	}
	seen := map[string]bool{}
	return func(u record.URL) error {
		key := siteverify.SiteKey(u.URL, scope)
		if !judged[key] {
			return add(u)
		}
		if !seen[key] {
			seen[key] = true
			r.skipped.Add(1)
		}
		return nil
	}
}

// isCanceled tells a verdict written because the run was interrupted.
func isCanceled(vd record.Verdict) bool { return vd.Error == siteverify.ErrCanceled.Error() }
