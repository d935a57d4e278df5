#!/usr/bin/env bash
# scripts/bench/postgres.sh: the PostgreSQL frontier, on the workload of
# scripts/bench/redis.sh (scripts/bench/frontier.sh runs it on SQLite).
#   seed add   1,000,000 url lines into an empty PostgreSQL frontier (2,000 hosts)
#   disk       bytes per URL: pg_total_relation_size of every table of the
#              crawl's schema (indexes and TOAST included), / URLs
#   seed add   200,000 more, into the frontier of 1,000,000
#   seed next  lease 200,000 by one client (--per-host 0), then 4 clients at once
#   crawl      4 crawl.sh pipes on one PostgreSQL frontier against 1 (simweb)
# Needs a PostgreSQL server: PG=postgres://postgres@127.0.0.1:5432/test
# (the bench's schema is dropped at the end). N=... changes the count;
# NO_CRAWL=1 leaves the crawl out.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${N:-1000000}
more=${MORE:-200000}
pg=${PG:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
schema=bench$$
case $pg in *\?*) db="$pg&schema=$schema" ;; *) db="$pg?schema=$schema" ;; esac
sql() { PGOPTIONS="-c client_min_messages=warning" psql "$pg" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
sql 'SELECT 1' >/dev/null || { echo "postgres.sh: no PostgreSQL at $pg" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; sql "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null' EXIT
go build -trimpath -o "$tmp/seed" ./cmd/seed

awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
  printf "https://www%d.example%d.cn/news/%d/article-%d.html?id=%d\n", i % 7, i % 2000, i % 97, i, i }' >"$tmp/urls.txt"
awk -v n="$n" -v m="$more" 'BEGIN { for (i = n; i < n + m; i++)
  printf "https://www%d.example%d.cn/news/%d/article-%d.html?id=%d\n", i % 7, i % 2000, i % 97, i, i }' >"$tmp/more.txt"

run() {
  local out=$tmp/time.$1; shift
  /usr/bin/time -f "%e %U %S" -o "$out" "$@"
  read -r wall user sys <"$out"
}
rate() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "inf" }'; }
bytes() { sql "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
  WHERE s.nspname = '$schema' AND c.relkind = 'r'"; }

run add "$tmp/seed" add -q --db "$db" "$tmp/urls.txt"
echo "seed add: $n URLs in ${wall}s (user ${user}s, sys ${sys}s)" >&2
add_wall=$(rate "$n" "$wall")
sql "VACUUM ANALYZE" >/dev/null 2>&1 || true
per_url=$(awk -v b="$(bytes)" -v n="$n" 'BEGIN { printf "%.0f", b / n }')

run more "$tmp/seed" add -q --db "$db" "$tmp/more.txt"
more_wall=$(rate "$more" "$wall")

run next sh -c "'$tmp/seed' next -q --db '$db' -n $more --per-host 0 >'$tmp/leased.jsonl'"
leased=$(wc -l <"$tmp/leased.jsonl")
next_wall=$(rate "$leased" "$wall")

q=$((more / 4))
start=$(date +%s.%N)
for i in 1 2 3 4; do "$tmp/seed" next -q --db "$db" -n "$q" --per-host 0 >"$tmp/leased4.$i.jsonl" & done
wait
wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
leased4=$(cat "$tmp"/leased4.*.jsonl | wc -l)
dups=$(cat "$tmp"/leased4.*.jsonl "$tmp/leased.jsonl" | sort | uniq -d | wc -l)
next4_wall=$(rate "$leased4" "$wall")

echo "| seed add (PostgreSQL) | URLs/s, $n URLs into an empty frontier | $add_wall | ≥ 20,000 |"
echo "| seed add (PostgreSQL) | URLs/s, $more more into a frontier of $n | $more_wall | ≥ 20,000 |"
echo "| frontier (PostgreSQL) | bytes on disk per URL (pg_total_relation_size, $n queued) | $per_url | |"
echo "| seed next (PostgreSQL) | URLs/s, one client leasing $leased of $((n + more)) queued | $next_wall | ≥ 10,000 |"
echo "| seed next (PostgreSQL) | URLs/s, 4 clients at once leasing $leased4 ($dups leased twice) | $next4_wall | |"

if [ -z "${NO_CRAWL:-}" ]; then
  log=$tmp/crawl.log
  if go test -count=1 -run TestPostgresFourWorkers -v ./internal/e2e/ >"$log" 2>&1; then
    one=$(awk '/one worker:/ { print $(NF) }' "$log")
    four=$(grep -o 'pages in all, in [0-9.a-z]*' "$log" | awk '{ print $NF }')
    echo "| crawl (PostgreSQL) | simweb, 400 pages: 1 worker / 4 workers, wall time | $one / $four | |"
  else
    echo "crawl test failed:" >&2; cat "$log" >&2
    echo "| crawl (PostgreSQL) | 4 workers on simweb | (test failed: see log) | |"
  fi
fi
