package render

import (
	"context"
	"time"

	"github.com/chromedp/chromedp"
)

// settleJS runs in every document of a tab before its own scripts. It
// counts DOM mutations (and when the last one happened), the pending
// short timers (setTimeout up to 10 s) and the page's fetch and
// XMLHttpRequest calls in flight (the end of one counts as activity, like
// a mutation), so that the renderer can tell a page still building itself
// from a settled one. It adds a hidden
// property and nothing to the DOM.
const settleJS = `(() => {
  if (window.__focuscrawl) return;
  const st = {mut: 0, last: Date.now(), pending: new Set()};
  Object.defineProperty(window, '__focuscrawl', {value: st, enumerable: false});
  new MutationObserver(() => { st.mut++; st.last = Date.now(); })
    .observe(document, {subtree: true, childList: true, characterData: true});
  const set = window.setTimeout, clear = window.clearTimeout;
  window.setTimeout = function (fn, ms, ...args) {
    if (typeof fn !== 'function' || !(ms <= 10000)) return set.call(this, fn, ms, ...args);
    const id = set.call(this, function () { st.pending.delete(id); return fn.apply(this, arguments); }, ms, ...args);
    st.pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) { st.pending.delete(id); return clear.call(this, id); };
  // Requests are counted where the page makes them too: the
  // interceptor hears of one only when the browser has paused it.
  st.net = 0;
  const done = () => { st.net--; st.last = Date.now(); };
  const fetch0 = window.fetch;
  if (fetch0) window.fetch = function (...args) {
    st.net++;
    let p;
    try { p = fetch0.apply(this, args); } catch (e) { done(); throw e; }
    p.then(done, done);
    return p;
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    st.net++;
    this.addEventListener('loadend', done, {once: true});
    try { return send.apply(this, args); } catch (e) { done(); throw e; }
  };
})();`

// stateJS reports the state settle needs.
const stateJS = `(() => {
  const st = window.__focuscrawl;
  if (!st) return {ready: document.readyState, mut: 0, age: 0, timers: 1, more: 0};
  return {ready: document.readyState, mut: st.mut, age: Date.now() - st.last, timers: st.pending.size + Math.max(st.net, 0),
          more: document.documentElement ? document.documentElement.scrollHeight - (window.scrollY + window.innerHeight) : 0};
})()`

// scrollJS scrolls to the end of the page, as a reader would.
const scrollJS = `window.scrollTo(0, document.documentElement.scrollHeight); window.dispatchEvent(new Event('scroll')); true`

// confirm is how long a page must stay settled between two checks.
const confirm = 100 * time.Millisecond

type pageState struct {
	Ready  string `json:"ready"`
	Mut    int64  `json:"mut"`
	Age    int64  `json:"age"`
	Timers int    `json:"timers"`
	// More is how far the page goes on below the window, in pixels.
	More int64 `json:"more"`
}

// settle waits until the page has loaded, has no request in flight, no
// short timer pending and an unchanged DOM for Quiet; then, while the page
// goes on below the window, scrolls it to its end, up to Scrolls times,
// waiting again after each scroll that changed something. It reports true when ctx's deadline came first: the
// page is cut.
func (r *Renderer) settle(ctx context.Context, ic *interceptor) (cut bool) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	quiet := r.cfg.Quiet.Milliseconds()
	scrolls := 0
	var scrolledAt, calmSince time.Time
	var mutAtScroll, calmMut int64
	for {
		select {
		case <-ctx.Done():
			return true
		case <-tick.C:
		}
		st, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](stateJS))
		if err != nil {
			continue // a document is being replaced; ask again
		}
		if st.Ready != "complete" || ic.pending.Load() > 0 || st.Timers > 0 || st.Age < quiet ||
			time.Since(ic.lastDone()).Milliseconds() < quiet ||
			time.Since(scrolledAt).Milliseconds() < quiet {
			calmSince = time.Time{}
			continue
		}
		// A renderer starved of CPU may run this check before timers
		// that are overdue: the page must still look settled a little
		// later, with no mutation in between.
		if calmSince.IsZero() || st.Mut != calmMut {
			calmSince, calmMut = time.Now(), st.Mut
			continue
		}
		if time.Since(calmSince) < confirm {
			continue
		}
		if scrolls > 0 && st.Mut == mutAtScroll {
			return false // the last scroll brought nothing
		}
		if scrolls >= r.cfg.Scrolls || st.More <= 0 {
			return false // nothing more below to bring in
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](scrollJS)); err != nil {
			continue
		}
		scrolls++
		scrolledAt, mutAtScroll, calmSince = time.Now(), st.Mut, time.Time{}
	}
}
