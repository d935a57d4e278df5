#!/usr/bin/env bash
# scripts/bench/fetch.sh: fetch 20,000 pages of ~20 KB from a loopback server
# spread over 200 host names (--delay 0 --per-host 8 -c 128, robots.txt on),
# then gocolly/colly v2 on the same URLs at the same concurrency (the
# benchmark-only module in scripts/bench/colly). Prints markdown rows
# "| stage | metric | value | target |". Env: PAGES (20000), HOSTS (200), C (128),
# RUNS (2: runs of each side, interleaved; the best is reported).
set -euo pipefail
cd "$(dirname "$0")/../.."
pages=${PAGES:-20000}
hosts=${HOSTS:-200}
conc=${C:-128}
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

mkdir -p bin
go build -trimpath -o bin/fetch ./cmd/fetch
(cd scripts/bench/colly && go build -trimpath -o "$work/server" ./server && go build -trimpath -o "$work/colly" .)

"$work/server" >"$work/addr" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
addr=$(head -1 "$work/addr")
port=${addr##*:}
awk -v n="$pages" -v h="$hosts" -v p="$port" \
  'BEGIN { for (i = 0; i < n; i++) printf "http://site%d.bench.test:%s/page/%d\n", i % h, p, i }' >"$work/urls"

# run NAME CMD...: wall seconds, peak RSS (KiB) and CPU seconds of CMD < urls > out;
# appends "secs rss_kb cpu_secs records ok" to $work/NAME.runs
run() {
  local name=$1; shift
  local t0 t1 rss user sys lines ok
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M %U %S' -o "$work/time" "$@" <"$work/urls" >"$work/$name.out" 2>"$work/$name.err"
  t1=$(date +%s.%N)
  read -r rss user sys <"$work/time"
  lines=$(wc -l <"$work/$name.out")
  ok=$(grep -c '"status":200' "$work/$name.out" || true)
  echo "$t0 $t1 $rss $user $sys $lines $ok" |
    awk '{ printf "%.3f %d %.3f %d %d\n", $2 - $1, $3, $4 + $5, $6, $7 }' >>"$work/$name.runs"
  tail -1 "$work/$name.err" >&2
}

# Interleaved runs, so both sides meet the same background load; the best
# rate of each side is reported (the machine is shared).
runs=${RUNS:-2}
for _ in $(seq "$runs"); do
  run fetch bin/fetch --delay 0 --per-host 8 -c "$conc" --resolve "*:$port:127.0.0.1" --progress off
  run colly "$work/colly" -c "$conc" -connect "127.0.0.1:$port"
done

report() {
  local name=$1 target_rate=$2 target_rss=$3
  # best run by wall time
  read -r secs rss_kb cpu lines ok < <(sort -n "$work/$name.runs" | head -1)
  # peak RSS: the largest of all runs
  local rss=$(( $(sort -k2,2n "$work/$name.runs" | tail -1 | cut -d' ' -f2) / 1024 ))
  local rate cpu_us
  rate=$(awk -v n="$lines" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
  cpu_us=$(awk -v c="$cpu" -v n="$pages" 'BEGIN { printf "%.0f", c * 1e6 / n }')
  echo "$name runs (secs rss_kb cpu_secs records status200):" >&2
  cat "$work/$name.runs" >&2
  echo "| fetch | $name: pages/s ($pages × 20 KB, $hosts hosts, -c $conc; best of $runs) | $rate | $target_rate |"
  echo "| fetch | $name: peak RSS (largest run) | ${rss} MB | $target_rss |"
  echo "| fetch | $name: CPU per page (user+sys) | ${cpu_us} µs | — |"
  echo "$rate" >"$work/$name.rate"
}
report fetch "≥ 3000" "≤ 150 MB"
report colly "—" "—"
ratio=$(awk -v a="$(cat "$work/fetch.rate")" -v b="$(cat "$work/colly.rate")" 'BEGIN { printf "%.2f", a / b }')
echo "| fetch | speed vs colly | ${ratio}× | ≥ 1.5× |"
