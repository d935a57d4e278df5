// Package frontier is the crawl frontier: the store of every URL a crawl
// has seen, queued, leased to a fetcher or recorded done, and the policy
// that decides which discovered links may enter it (scope, URL filters and
// trap guards).
//
// Store is the small interface the seed commands use; SQLiteStore is the
// default implementation, one embedded SQLite file in WAL mode that
// `seed next` and `seed add` share at the same time from the two ends of a
// crawl pipe, and that users can inspect with sqlite3 (docs/frontier.md
// documents its schema). RedisStore and PostgresStore share one frontier
// between the pipes of many machines (Open picks the store by the form of
// --db). A lease expires: a URL handed out whose page
// never comes back is queued again, so a killed stage loses nothing.
package frontier
