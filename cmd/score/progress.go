package main

import "time"

// progress draws the progress line (--progress).
func (r *runner) progress() {
	n := r.scored.Load()
	r.s.Log.Progressf("%d docs scored, %.0f docs/s", n, float64(n)/max(time.Since(r.start).Seconds(), 1e-3))
}
