// Package fetcher is focuscrawl's polite concurrent HTTP fetcher: it turns
// url records into page records whose HTML is valid UTF-8.
//
// A Fetcher owns a fixed pool of workers (the global concurrency) and one
// scheduler goroutine that keeps a queue per host, the politeness key.
// A host never has more than PerHost requests in flight, and request starts
// to one host are spaced by its delay: the larger of Config.Delay and the
// Crawl-delay of its robots.txt (capped by MaxCrawlDelay). With PerHost 1
// the delay runs from the end of the previous request, so the gap seen by
// the server is never shorter than the delay. 429 and 5xx gateway answers
// and connection errors are retried with exponential backoff and full
// jitter, or after the server's Retry-After, and the whole host waits too.
//
// robots.txt (RFC 9309) is fetched through the same per-host queue, once
// per origin, cached for RobotsTTL: a 4xx answer allows everything, a 5xx
// answer or an unreachable server disallows everything for RobotsErrorTTL.
// A blocked URL yields a page whose Error says why: "robots-disallow"
// (with the rules that decided it, for the frontier to learn),
// "robots-unreachable: …", or "dns: robots.txt: …" / "connect: robots.txt:
// …" when the host itself is down. A gateway answer whose RFC 9209
// Proxy-Status names the error the proxy met takes that error's kind
// (dns, connect, timeout, …) instead of "http 502". Redirect
// hops are not followed inside the HTTP client: each goes back to the
// scheduler, at the front of its target host's queue, so it waits that
// host's turn and passes its robots.txt too.
//
// Every URL given to Fetch or Run yields exactly one page, whatever
// happens: invalid URLs, network errors and cancellation are recorded in
// Page.Error. The lineage and meta of the input are carried over.
//
// Memory is bounded: the scheduler accepts at most Config.Queue waiting
// URLs (over all hosts); beyond that Run stops reading its input until
// some are done, so a long run of URLs for one slow host delays the hosts
// after it in the input instead of growing without bound. Inputs spread
// across hosts (seed next does this) keep every worker busy.
package fetcher
