#!/usr/bin/env bash
# segment speed: MB/s of HTML per core (Go benchmark, one goroutine) with and
# without tokens, start-up time of the command on a Chinese page, and the
# extraction quality figures of scripts/eval-extract.sh. Prints markdown rows
# | stage | metric | value | target |. DATA_DIR defaults to ../shared/data.
set -euo pipefail
cd "$(dirname "$0")/../.."
data="$(cd "${DATA_DIR:-../shared/data}" && pwd)"
make -s build >/dev/null
aeb_dir=$(mktemp -d)
trap 'rm -rf "$aeb_dir"' EXIT
if [ -d "$data/extraction/aeb/html" ]; then
  for f in "$data"/extraction/aeb/html/*.html.gz; do
    gzip -dc "$f" >"$aeb_dir/$(basename "$f" .gz)"
  done
fi
bench() { # dir benchname
  SEGMENT_BENCH_DIR="$1" go test -run XXX -bench "$2" -benchtime 3x -count 1 ./internal/segmenter/ \
    | awk '/MB\/s/ {for (i=1;i<=NF;i++) if ($(i+1)=="MB/s") print $i}'
}
for set in aeb cwce; do
  dir="$aeb_dir"; [ "$set" = cwce ] && dir="$data/extraction/cwce-dev/html"
  [ -d "$dir" ] || continue
  echo "| segment | $set MB/s per core, no tokens | $(bench "$dir" 'BenchmarkSegment$') | ≥ 20 |"
  echo "| segment | $set MB/s per core, with tokens | $(bench "$dir" 'BenchmarkSegmentTokens$') | ≥ 10 |"
done
page=$(ls "$data"/extraction/cwce-dev/html/*.html 2>/dev/null | head -1 || true)
if [ -n "$page" ]; then
  rec=$(mktemp)
  python3 - "$page" >"$rec" <<'PY'
import json, sys
raw = open(sys.argv[1], 'rb').read()
try: html = raw.decode('utf-8')
except UnicodeDecodeError: html = raw.decode('gb18030', 'replace')
print(json.dumps({"url": "http://bench.example/a.html", "status": 200, "html": html}, ensure_ascii=False))
PY
  start=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$rec.rss" bin/segment -q "$rec" >/dev/null
  end=$(date +%s%N)
  echo "| segment | start-up + 1 Chinese page (tokens on) | $(( (end - start) / 1000000 )) ms, $(( $(cat "$rec.rss") / 1024 )) MB RSS | ≤ 300 ms |"
  rm -f "$rec" "$rec.rss"
fi
if [ -d "$data/extraction" ]; then
  bin/segment eval "$data" | awk -F'|' 'NR>2 {gsub(/ /,"",$2); printf "| segment | %s content F1 | %s | %s |\n", $2, $6, ($2=="aeb"?"≥ 0.96":($2=="cwce-dev"?"≥ 0.94":"–")); if ($2=="cwce-dev") {printf "| segment | cwce-dev published | %s | ≥ 90%% |\n| segment | cwce-dev author | %s | ≥ 80%% |\n", $9, $8}}'
fi
