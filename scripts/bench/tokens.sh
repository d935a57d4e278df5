#!/usr/bin/env bash
# scripts/bench/tokens.sh [DATA_DIR] [SEEDS_DIR]: the tokenizer (internal/text) measured on
# real Chinese pages: time to first tokens, peak RSS and binary size of a minimal program
# linking internal/text, the same for gse with its full zh dictionary, agreement of our
# tokens with gse's, and tokenizing speed. Prints rows "| stage | metric | value | target |".
# DATA_DIR defaults to ../shared/data (pages under extraction/cwce-dev/html); SEEDS_DIR to
# DATA_DIR/../seeds (plain UTF-8 Chinese papers).
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:-../shared/data}
seeds=${2:-$data/../seeds}
pages=$data/extraction/cwce-dev/html
[ -d "$pages" ] || { echo "tokens.sh: no pages in $pages" >&2; exit 1; }
[ -d "$seeds" ] || { echo "tokens.sh: no seeds in $seeds" >&2; exit 1; }

bin=out/bench/tokens-bin
mkdir -p "$bin"
go build -trimpath -o "$bin/tokenize" ./internal/text/gen/tokenize
go build -trimpath -o "$bin/agree" ./internal/text/gen/agree

# One page of Chinese text, as a stage sees its first record.
page=$(ls "$pages"/*.html | head -1)
english=$(mktemp)
trap 'rm -f "$english"' EXIT
for _ in $(seq 50); do echo "The forest management plan follows FAO guidelines for sustainable forestry."; done >"$english"

# median N FIELD CMD...: run CMD N times, print the median of FIELD= from its stderr.
median() {
  local n=$1 field=$2; shift 2
  for _ in $(seq "$n"); do "$@" 2>&1 >/dev/null | tr ' ' '\n' | sed -n "s/^$field=//p"; done |
    sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
# wall_ms N CMD...: median wall-clock time of the whole process, exec to exit.
wall_ms() {
  local n=$1; shift
  for _ in $(seq "$n"); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000000 ))
  done | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}

first=$(median 7 first_tokens_ms "$bin/tokenize" "$page")
wall=$(wall_ms 7 "$bin/tokenize" "$page")
rss=$(median 3 maxrss_kb "$bin/tokenize" "$page")
en_first=$(median 7 first_tokens_ms "$bin/tokenize" "$english")
en_rss=$(median 3 maxrss_kb "$bin/tokenize" "$english")
en_loaded=$("$bin/tokenize" "$english" 2>&1 >/dev/null | sed -n 's/.*chinese_loaded=//p')
gse_first=$(median 3 first_tokens_ms "$bin/agree" -startup "$page")
gse_rss=$(median 1 maxrss_kb "$bin/agree" -startup "$page")
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN {printf "%.1f MB", b/1e6}'; }

echo "| tokens | time to first tokens, Chinese page (in process) | ${first} ms | ≤ 300 ms |"
echo "| tokens | whole process, exec to exit, one Chinese page | ${wall} ms | ≤ 300 ms |"
echo "| tokens | peak RSS, one Chinese page | $(( rss / 1024 )) MB | |"
echo "| tokens | time to first tokens, English text (dictionary loaded: $en_loaded) | ${en_first} ms | |"
echo "| tokens | peak RSS, English text | $(( en_rss / 1024 )) MB | |"
echo "| tokens | gse full zh, time to first tokens (reference) | ${gse_first} ms | |"
echo "| tokens | gse full zh, peak RSS (reference) | $(( gse_rss / 1024 )) MB | |"
echo "| tokens | binary size, minimal program with internal/text | $(size_mb "$bin/tokenize") | |"
echo "| tokens | binary size, the same with gse linked (reference) | $(size_mb "$bin/agree") | |"
echo "| tokens | embedded dictionary (zstd) | $(size_mb internal/text/data/zh.dict.zst) | |"
# The stage that pays it first: segment, from exec to exit, on one Chinese page record.
if [ -x bin/segment ]; then
  pagerec=$(mktemp)
  "$bin/tokenize" -page "$page" >"$pagerec"
  seg_wall=$(wall_ms 7 bin/segment "$pagerec")
  seg_rss=$(/usr/bin/time -f '%M' bin/segment "$pagerec" 2>&1 >/dev/null | tail -1)
  seg_notok=$(wall_ms 7 bin/segment --tokens=false "$pagerec")
  echo "| tokens | segment start-up: exec to exit, one Chinese page, with tokens | ${seg_wall} ms | ≤ 300 ms |"
  echo "| tokens | segment, the same without tokens | ${seg_notok} ms | |"
  echo "| tokens | segment peak RSS, one Chinese page, with tokens | $(( seg_rss / 1024 )) MB | |"
  rm -f "$pagerec"
fi
for b in segment score dedupe; do
  [ -x "bin/$b" ] && echo "| tokens | binary size, bin/$b | $(size_mb "bin/$b") | |"
done

"$bin/agree" "$pages" "$seeds" | grep -v 'segmentation speed'

go test -run '^$' -bench 'BenchmarkTokens' -benchtime 2s ./internal/text |
  awk '/^BenchmarkTokens/ {name=$1; sub(/^BenchmarkTokens/, "", name); sub(/-[0-9]+$/, "", name);
       for (i = 1; i <= NF; i++) if ($i == "MB/s") printf "| tokens | Tokens speed, %s, one core | %s MB/s | |\n", name, $(i-1)}'
