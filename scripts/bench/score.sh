#!/usr/bin/env bash
# scripts/bench/score.sh [DATA_DIR]: score throughput on segment output of real pages, and
# the graph strategies on a 100,000-page synthetic graph. Prints rows
# "| stage | metric | value | target |".
# DATA_DIR defaults to ../shared/data (English news pages under extraction/aeb/html).
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:-../shared/data}
pages=$data/extraction/aeb/html
[ -d "$pages" ] || { echo "score.sh: no pages in $pages" >&2; exit 1; }

bin=out/bench/score-bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/segment ./cmd/score
topic=examples/topics/travel.yaml

# Page records from the real pages, then their docs as segment writes them.
python3 - "$pages" >"$work/pages.jsonl" <<'PY'
import gzip, json, os, sys
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    html = gzip.open(os.path.join(d, name)).read().decode("utf-8", "replace")
    print(json.dumps({"url": "http://aeb.test/" + name.split(".")[0], "status": 200,
                      "content_type": "text/html", "html": html}, ensure_ascii=False))
PY
"$bin/segment" -q --topic "$topic" "$work/pages.jsonl" >"$work/docs1.jsonl"
n1=$(wc -l <"$work/docs1.jsonl")
# About 5,000 docs: the pages repeated (scoring keeps no cache across docs).
reps=$(( (5000 + n1 - 1) / n1 ))
for _ in $(seq "$reps"); do cat "$work/docs1.jsonl"; done >"$work/docs.jsonl"
n=$(wc -l <"$work/docs.jsonl")

# rate ARGS...: docs/s of score over docs.jsonl (best of 3 runs).
rate() {
  local best=0
  for _ in 1 2 3; do
    local t0 t1 r
    t0=$(date +%s%N)
    "$bin/score" -q --topic "$topic" "$@" "$work/docs.jsonl" >/dev/null
    t1=$(date +%s%N)
    r=$(( n * 1000000000 / (t1 - t0) ))
    [ "$r" -gt "$best" ] && best=$r
  done
  echo "$best"
}
echo "| score | vsm docs/s, 1 worker ($n docs of $n1 real pages, JSON in and out) | $(rate --page vsm --links best-first --workers 1) | ≥ 5,000 per core |"
echo "| score | vsm docs/s, 2 workers | $(rate --page vsm --links best-first --workers 2) | |"
echo "| score | block-shark docs/s, 1 worker | $(rate --page vsm --links block-shark --workers 1) | |"
echo "| score | block-shark docs/s, 2 workers | $(rate --page vsm --links block-shark --workers 2) | |"

# The scoring alone (no JSON), and the graph strategies at 100,000 pages.
go test -run '^$' -bench 'VSM|BlockShark|100k' -benchtime 2s ./internal/scoring/ >"$work/bench.txt"
field() { awk -v b="$1" -v u="$2" '$1 ~ b { for (i = 2; i < NF; i++) if ($(i+1) == u) print $i }' "$work/bench.txt" | head -1; }
echo "| score | vsm docs/s, scoring alone (Go benchmark, 400-token docs) | $(field BenchmarkVSM docs/s) | ≥ 5,000 per core |"
echo "| score | block-shark docs/s, scoring alone (60 links a doc) | $(field BenchmarkBlockShark docs/s) | |"
ipr=$(field BenchmarkIPageRank100k ns/op)
lm=$(field BenchmarkLinkModel100k ns/op)
echo "| score | ipagerank, 100,000 pages / 2,000,000 links: seconds (heap MB) | $(awk -v t="$ipr" 'BEGIN{printf "%.2f", t/1e9}') ($(field BenchmarkIPageRank100k heapMB)) | < 60 s, bounded |"
echo "| score | linkmodel, 100,000 candidates, top-10 V: seconds (heap MB) | $(awk -v t="$lm" 'BEGIN{printf "%.2f", t/1e9}') ($(field BenchmarkLinkModel100k heapMB)) | < 60 s, bounded |"
