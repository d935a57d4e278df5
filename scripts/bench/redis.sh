#!/usr/bin/env bash
# scripts/bench/redis.sh [DATA_DIR]: the Redis frontier beside the SQLite one
# (scripts/bench/frontier.sh runs the same workload on SQLite).
#   seed add   1,000,000 url lines into an empty Redis frontier (2,000 hosts)
#   memory     bytes per queued URL: INFO memory used_memory, after - before
#   seed add   200,000 more, into the frontier of 1,000,000
#   seed next  lease 200,000 by one client (--per-host 0), then 4 clients at once
#   crawl      pages/s of 4 crawl.sh pipes on one Redis frontier against 1 (simweb)
# Needs a Redis server: REDIS=redis://127.0.0.1:6379/13 (the bench's keys are
# deleted at the end). N=... changes the count.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${N:-1000000}
more=${MORE:-200000}
redis=${REDIS:-redis://127.0.0.1:6379/13}
hostport=${redis#redis://}; hostport=${hostport%%/*}
dbnum=${redis##*/}
cli() { redis-cli -h "${hostport%:*}" -p "${hostport#*:}" -n "$dbnum" "$@"; }
cli ping >/dev/null || { echo "redis.sh: no Redis at $redis" >&2; exit 1; }
prefix=bench$$
db="$redis?prefix=$prefix"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; cli --scan --pattern "{$prefix}*" | xargs -r -n 1000 redis-cli -h "${hostport%:*}" -p "${hostport#*:}" -n "$dbnum" unlink >/dev/null' EXIT
go build -trimpath -o "$tmp/seed" ./cmd/seed

awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
  printf "https://www%d.example%d.cn/news/%d/article-%d.html?id=%d\n", i % 7, i % 2000, i % 97, i, i }' >"$tmp/urls.txt"
awk -v n="$n" -v m="$more" 'BEGIN { for (i = n; i < n + m; i++)
  printf "https://www%d.example%d.cn/news/%d/article-%d.html?id=%d\n", i % 7, i % 2000, i % 97, i, i }' >"$tmp/more.txt"

# srvcpu is the Redis server's CPU seconds so far (INFO cpu): a step's CPU is
# the client's (user + sys) plus the server's, so that its per-CPU-second rate
# holds on a loaded machine (other clients of the same server count too).
srvcpu() { cli info cpu | tr -d '\r' | awk -F: '$1 == "used_cpu_sys" || $1 == "used_cpu_user" { s += $2 } END { printf "%.3f", s }'; }
run() {
  local out=$tmp/time.$1; shift
  local s0; s0=$(srvcpu)
  /usr/bin/time -f "%e %U %S" -o "$out" "$@"
  read -r wall user sys <"$out"
  cpu=$(awk -v u="$user" -v s="$sys" -v a="$s0" -v b="$(srvcpu)" 'BEGIN { print u + s + b - a }')
}
rate() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "inf" }'; }
used() { cli info memory | tr -d '\r' | awk -F: '$1 == "used_memory" { print $2 }'; }

before=$(used)
run add "$tmp/seed" add -q --db "$db" "$tmp/urls.txt"
echo "seed add: $n URLs in ${wall}s" >&2
add_wall=$(rate "$n" "$wall"); add_cpu=$(rate "$n" "$cpu")
after=$(used)
per_url=$(awk -v a="$after" -v b="$before" -v n="$n" 'BEGIN { printf "%.0f", (a - b) / n }')

run more "$tmp/seed" add -q --db "$db" "$tmp/more.txt"
more_wall=$(rate "$more" "$wall"); more_cpu=$(rate "$more" "$cpu")

run next sh -c "'$tmp/seed' next -q --db '$db' -n $more --per-host 0 >'$tmp/leased.jsonl'"
leased=$(wc -l <"$tmp/leased.jsonl")
next_wall=$(rate "$leased" "$wall"); next_cpu=$(rate "$leased" "$cpu")

q=$((more / 4))
start=$(date +%s.%N)
for i in 1 2 3 4; do "$tmp/seed" next -q --db "$db" -n "$q" --per-host 0 >"$tmp/leased4.$i.jsonl" & done
wait
wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
leased4=$(cat "$tmp"/leased4.*.jsonl | wc -l)
dups=$(cat "$tmp"/leased4.*.jsonl "$tmp/leased.jsonl" | sort | uniq -d | wc -l)
next4_wall=$(rate "$leased4" "$wall")

echo "| seed add (Redis) | URLs/s (per CPU-s, client + server), $n URLs into an empty frontier | $add_wall ($add_cpu) | ≥ 50,000 |"
echo "| seed add (Redis) | URLs/s (per CPU-s), $more more into a frontier of $n | $more_wall ($more_cpu) | ≥ 50,000 |"
echo "| frontier (Redis) | bytes per queued URL (INFO used_memory, $n queued) | $per_url | ≤ 200 |"
echo "| seed next (Redis) | URLs/s (per CPU-s), one client leasing $leased of $((n + more)) queued | $next_wall ($next_cpu) | ≥ 30,000 |"
echo "| seed next (Redis) | URLs/s, 4 clients at once leasing $leased4 ($dups leased twice) | $next4_wall | |"

if [ -z "${NO_CRAWL:-}" ]; then
  log=$tmp/crawl.log
  if go test -count=1 -run TestRedisFourWorkers -v ./internal/e2e/ >"$log" 2>&1; then
    one=$(awk '/one worker:/ { print $(NF) }' "$log")
    four=$(grep -o 'pages in all, in [0-9.a-z]*' "$log" | awk '{ print $NF }')
    echo "| crawl (Redis) | simweb, 400 pages: 1 worker / 4 workers, wall time | $one / $four | |"
  else
    echo "crawl test failed:" >&2; cat "$log" >&2
    echo "| crawl (Redis) | 4 workers on simweb | (test failed: see log) | |"
  fi
fi
