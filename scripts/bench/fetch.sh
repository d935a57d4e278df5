#!/usr/bin/env bash
# scripts/bench/fetch.sh: fetch 20,000 pages of ~20 KB from a loopback server
# spread over 200 host names (--delay 0 --per-host 8 -c 128, robots.txt on),
# then gocolly/colly v2 on the same URLs at the same concurrency (the
# benchmark-only module in scripts/bench/colly). Prints markdown rows
# "| stage | metric | value | target |". Env: PAGES (20000), HOSTS (200), C (128).
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

# run NAME CMD...: wall seconds and peak RSS (KiB) of CMD < urls > out
run() {
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M %U %S' -o "$work/$name.time" "$@" <"$work/urls" >"$work/$name.out" 2>"$work/$name.err"
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }' >"$work/$name.secs"
  cat "$work/$name.err" >&2
}

run fetch bin/fetch --delay 0 --per-host 8 -c "$conc" --resolve "*:$port:127.0.0.1" --progress off
run colly "$work/colly" -c "$conc" -connect "127.0.0.1:$port"

report() {
  local name=$1 target_rate=$2 target_rss=$3
  local secs rss lines ok rate
  secs=$(cat "$work/$name.secs")
  read -r rss_kb user sys <"$work/$name.time"
  rss=$(( rss_kb / 1024 ))
  cpu_us=$(awk -v u="$user" -v s="$sys" -v n="$pages" 'BEGIN { printf "%.0f", (u + s) * 1e6 / n }')
  lines=$(wc -l <"$work/$name.out")
  ok=$(grep -c '"status":200' "$work/$name.out" || true)
  rate=$(awk -v n="$lines" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
  echo "$name: $lines records ($ok with status 200) in ${secs}s, peak RSS ${rss} MB, ${cpu_us} µs CPU per page" >&2
  echo "| fetch | $name: pages/s ($pages × 20 KB, $hosts hosts, -c $conc) | $rate | $target_rate |"
  echo "| fetch | $name: peak RSS | ${rss} MB | $target_rss |"
  echo "| fetch | $name: CPU per page (user+sys) | ${cpu_us} µs | — |"
  echo "$rate" >"$work/$name.rate"
}
report fetch "≥ 3000" "≤ 150 MB"
report colly "—" "—"
ratio=$(awk -v a="$(cat "$work/fetch.rate")" -v b="$(cat "$work/colly.rate")" 'BEGIN { printf "%.2f", a / b }')
echo "| fetch | speed vs colly | ${ratio}× | ≥ 1.5× |"
