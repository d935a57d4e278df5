#!/usr/bin/env bash
# segment speed: MB of HTML per second of one goroutine (Go benchmark
# BenchmarkSegment / BenchmarkSegmentTokens), both wall-clock and per CPU-second
# of the process (the fair "per core" figure when the machine is shared), the
# start-up time of the command on a Chinese page, and the extraction quality
# figures of scripts/eval-extract.sh. Prints markdown rows
# | stage | metric | value | target |. DATA_DIR defaults to ../shared/data.
# Pages are decoded by internal/charset (the benchmark) or fetched through
# bin/fetch from a loopback server (the start-up record), never by hand.
# BENCH_TIMES (default 5x) and BENCH_RUNS (default 3) reduce the runs on a
# busy machine, e.g. BENCH_TIMES=2x BENCH_RUNS=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
data="$(cd "${DATA_DIR:-../shared/data}" && pwd)"
make -s build >/dev/null
tmp=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/aeb"
if [ -d "$data/extraction/aeb/html" ]; then
  for f in "$data"/extraction/aeb/html/*.html.gz; do
    gzip -dc "$f" >"$tmp/aeb/$(basename "$f" .gz)"
  done
fi
go test -c -o "$tmp/segmenter.test" ./internal/segmenter/ >/dev/null
bench() { # dir benchname -> "wall MB/s|MB/cpu-s", best of the runs
  (cd internal/segmenter && SEGMENT_BENCH_DIR="$1" "$tmp/segmenter.test" -test.run XXX \
    -test.bench "$2" -test.benchtime "${BENCH_TIMES:-5x}" -test.count "${BENCH_RUNS:-3}") |
    awk '/MB\/s/ {for (i=1;i<=NF;i++) {if ($(i+1)=="MB/s" && $i>w) w=$i; if ($(i+1)=="MB/cpu-s" && $i>c) c=$i}}
         END {printf "%.1f MB/s wall, %.1f MB/cpu-s", w, c}'
}
for set in aeb cwce; do
  dir="$tmp/aeb"; [ "$set" = cwce ] && dir="$data/extraction/cwce-dev/html"
  ls "$dir"/*.html >/dev/null 2>&1 || continue
  echo "| segment | $set, no tokens | $(bench "$dir" 'BenchmarkSegment$') | ≥ 20 MB/s per core |"
  echo "| segment | $set, with tokens | $(bench "$dir" 'BenchmarkSegmentTokens$') | ≥ 10 MB/s per core |"
done
page=$(ls "$data"/extraction/cwce-dev/html/*.html 2>/dev/null | head -1 || true)
if [ -n "$page" ] && command -v python3 >/dev/null; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  (cd "$(dirname "$page")" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
  server=$!
  for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1',$port),0.2)" 2>/dev/null && break
    sleep 0.1
  done
  echo "http://127.0.0.1:$port/$(basename "$page")" | bin/fetch -q --allow-private --ignore-robots --delay 0 >"$tmp/rec.jsonl"
  best=""
  for _ in 1 2 3; do
    start=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$tmp/rss" bin/segment -q "$tmp/rec.jsonl" >/dev/null
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "| segment | start-up + 1 Chinese page (tokens on) | $best ms, $(( $(cat "$tmp/rss") / 1024 )) MB RSS | ≤ 300 ms |"
fi
if [ -d "$data/extraction" ]; then
  # Content F1 per set; the target is the better of trafilatura and
  # Readability + 0.01 (docs/segment.md, scripts/bench/extractcmp).
  bin/segment eval "$data" | awk -F'|' 'NR>2 {gsub(/ /,"",$2);
    printf "| segment | %s content F1 (P / R) | %s (%s / %s) | docs/segment.md |\n", $2, $6, $4, $5;
    if ($2=="cwce-dev") {printf "| segment | cwce-dev published | %s | ≥ 95%% |\n| segment | cwce-dev author | %s | ≥ 85%% |\n", $9, $8}}'
fi
