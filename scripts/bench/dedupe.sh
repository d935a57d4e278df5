#!/usr/bin/env bash
# scripts/bench/dedupe.sh [DATA_DIR]: dedupe's quality and scale. Prints rows
# "| stage | metric | value | target |".
#
# Quality: a labelled corpus of copies built from the real article texts in DATA_DIR
# (extraction/aeb ground truth, English; extraction/cwce-dev gold, Chinese) by
# scripts/bench/dedupe_corpus.py — template added/removed, dates and bylines changed,
# paragraphs swapped or dropped, traditional script, all mixed — with the distinct
# articles of one site sharing a template. Pairwise precision and recall of dedupe's
# groups (scripts/bench/dedupe_eval.py) at the defaults, at -k 6 and with --method euclid.
# And simweb: article pages with their print versions, through fetch and segment
# (scripts/bench/dedupe_simweb.py), same-site articles as the distinct pairs.
#
# Scale: N synthetic docs (DEDUPE_SCALE_N, default 1,000,000; 18% copies) carrying their
# tokens as segment's and score's docs do, through `dedupe --index` into a new index:
# docs/s, CPU per doc and peak RSS; the first 100,000 of them again with
# --doc-tokens=false (content cut again, as for docs without tokens) for the CPU per doc
# of that path; then the first 30,000 docs again under new URLs against the index (load
# time included; all must be found as copies of the earlier run). Then N docs of 8
# paragraphs each (dedupesynth -paras 8: every article gets leave-one-paragraph-out
# SimHashes, the memory case) through --index.
# DATA_DIR defaults to ../shared/data.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:-../shared/data}
[ -f "$data/extraction/aeb/ground-truth.json" ] || { echo "dedupe.sh: no aeb ground truth in $data" >&2; exit 1; }
n=${DEDUPE_SCALE_N:-1000000}

bin=out/bench/dedupe-bin
work=$(mktemp -d)
. scripts/bench/lib.sh
trap 'simweb_stop; rm -rf "$work"' EXIT
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/dedupe ./cmd/simweb ./cmd/fetch ./cmd/segment ./scripts/bench/dedupesynth

# --- quality -------------------------------------------------------------------
python3 scripts/bench/dedupe_corpus.py "$data" . "$work/corpus.jsonl"
quality() { # label, dedupe flags...
  local label=$1
  shift
  "$bin/dedupe" -q --all --emit-dups --window all "$@" "$work/corpus.jsonl" >"$work/out.jsonl"
  python3 scripts/bench/dedupe_eval.py "$work/corpus.jsonl" "$work/out.jsonl" >"$work/q.json"
  echo "quality $label: $(cat "$work/q.json")" >&2
  local p r kinds docs
  p=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["precision"])' "$work/q.json")
  r=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["recall"])' "$work/q.json")
  docs=$(python3 -c 'import json,sys; q=json.load(open(sys.argv[1])); print("%d docs, %d same-template distinct pairs" % (q["docs"], q["same_template_pairs"]))' "$work/q.json")
  kinds=$(python3 -c 'import json,sys; q=json.load(open(sys.argv[1])); print(", ".join("%s %.2f" % kv for kv in q["recall_by_kind"].items()))' "$work/q.json")
  echo "| dedupe | precision / recall, $label ($docs) | $p / $r | ≥ 0.98 / ≥ 0.90 |"
  echo "| dedupe | recall by kind of copy, $label | $kinds | |"
}
quality "defaults (simhash -k 3)"
quality "-k 6" -k 6
quality "--method euclid (distance ≤ 0.45, candidates -k 8)" --method euclid

# simweb: article pages and their print versions, fetched through simweb's proxy and
# segmented (the real pipeline: what segment leaves of each template), same-site articles
# as the distinct pairs.
"$bin/simweb" truth >"$work/truth.jsonl"
python3 scripts/bench/dedupe_simweb.py pick "$work/truth.jsonl" "$work/sw-urls.txt"
simweb_start "$work" serve -q --no-faults --addr 127.0.0.1:0
"$bin/fetch" -q --proxy "$proxy" --delay 0s --per-host 4 --ignore-robots "$work/sw-urls.txt" \
  | "$bin/segment" -q >"$work/sw-docs.jsonl"
simweb_stop
"$bin/dedupe" -q --all --emit-dups --window all "$work/sw-docs.jsonl" >"$work/sw-out.jsonl"
python3 scripts/bench/dedupe_simweb.py eval "$work/truth.jsonl" "$work/sw-docs.jsonl" "$work/sw-out.jsonl" >"$work/sw.json"
echo "quality simweb: $(cat "$work/sw.json")" >&2
sw=$(python3 -c 'import json,sys; q=json.load(open(sys.argv[1])); print("%s / %s | %d docs, %d same-site distinct pairs, %d false merges" % (q["precision"], q["recall"], q["docs"], q["same_site_distinct_pairs"], q["fp"]))' "$work/sw.json")
echo "| dedupe | precision / recall, simweb articles + print versions through fetch and segment, defaults | ${sw%% |*} | ≥ 0.98 / ≥ 0.90 |"
echo "| dedupe | simweb corpus | ${sw#*| } | |"

# --- scale ---------------------------------------------------------------------
"$bin/dedupesynth" -n "$n" >"$work/synth.jsonl" 2>"$work/synth.log"
cat "$work/synth.log" >&2
# measure NAME ARGS...: runs dedupe under /usr/bin/time; sets wall, cpu, rss (KiB).
measure() {
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin/dedupe" "$@" >/dev/null 2>"$work/dedupe.log"
  cat "$work/dedupe.log" >&2
  read -r wall user sys rss <"$work/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{print u+s}')
}
measure --index "$work/scale.idx" "$work/synth.jsonl"
rate=$(awk -v n="$n" -v t="$wall" 'BEGIN{printf "%d", n/t}')
us=$(awk -v n="$n" -v c="$cpu" 'BEGIN{printf "%.0f", c*1e6/n}')
kept=$(grep -o '[0-9]* kept' "$work/dedupe.log" | head -n 1)
echo "| dedupe | docs/s, $n synthetic docs (1.2 KB + tokens, half Chinese) through --index, 2 workers ($kept) | $rate | ≥ 20,000 |"
echo "| dedupe | CPU per doc (user+sys), same run | ${us} µs | ≤ 100 µs on 2 cores |"
echo "| dedupe | peak RSS, same run | $((rss / 1024)) MiB | ≤ 1 GiB |"
echo "| dedupe | index file after the run | $(( $(stat -c %s "$work/scale.idx") / 1048576 )) MiB | |"
m=$(( n < 100000 ? n : 100000 ))
head -n "$m" "$work/synth.jsonl" >"$work/part.jsonl"
measure --index "$work/part-tok.idx" "$work/part.jsonl"
us_tok=$(awk -v n="$m" -v c="$cpu" 'BEGIN{printf "%.0f", c*1e6/n}')
rate_tok=$(awk -v n="$m" -v t="$wall" 'BEGIN{printf "%d", n/t}')
measure --index "$work/part-cut.idx" --doc-tokens=false "$work/part.jsonl"
us_cut=$(awk -v n="$m" -v c="$cpu" 'BEGIN{printf "%.0f", c*1e6/n}')
rate_cut=$(awk -v n="$m" -v t="$wall" 'BEGIN{printf "%d", n/t}')
echo "| dedupe | CPU per doc (docs/s), first $m docs: from their tokens / cut again (--doc-tokens=false) | ${us_tok} µs ($rate_tok) / ${us_cut} µs ($rate_cut) | |"
head -n 30000 "$work/synth.jsonl" | sed 's|"url":"http://|"url":"http://again.|' >"$work/again.jsonl"
again=$(wc -l <"$work/again.jsonl")
measure --index "$work/scale.idx" "$work/again.jsonl"
load=$(grep -o 'loaded in [0-9.]*s' "$work/dedupe.log" | grep -o '[0-9.]*')
drop=$(grep -o '[0-9]* of earlier runs' "$work/dedupe.log" | grep -o '^[0-9]*')
echo "| dedupe | next run: the first $again docs again (same texts, new URLs) against the $n-doc index: seconds (index load) | $wall ($load s) | |"
echo "| dedupe | next run: copies of earlier runs found | $drop of $again | = $again |"
echo "| dedupe | next run: peak RSS | $((rss / 1024)) MiB | ≤ 1 GiB |"
rm -f "$work/synth.jsonl" "$work/again.jsonl" "$work/part.jsonl"
"$bin/dedupesynth" -n "$n" -paras 8 >"$work/synth8.jsonl" 2>"$work/synth.log"
cat "$work/synth.log" >&2
measure --index "$work/scale8.idx" "$work/synth8.jsonl"
rate=$(awk -v n="$n" -v t="$wall" 'BEGIN{printf "%d", n/t}')
us=$(awk -v n="$n" -v c="$cpu" 'BEGIN{printf "%.0f", c*1e6/n}')
near=$(grep -o 'near [0-9]*' "$work/dedupe.log" | head -n 1)
echo "| dedupe | $n docs of 8 paragraphs (+ tokens) through --index: docs/s, CPU per doc ($near) | $rate, ${us} µs | ≥ 20,000 |"
echo "| dedupe | peak RSS, same run | $((rss / 1024)) MiB | ≤ 1 GiB |"

# --- Go benchmarks -----------------------------------------------------------------
go test -run '^$' -bench 'Near1M|PrintChinese|PrintEnglish' -benchtime 1s ./internal/dedup/ >"$work/bench.txt"
field() { awk -v b="$1" -v u="$2" '$1 ~ b { for (i = 2; i < NF; i++) if ($(i+1) == u) print $i }' "$work/bench.txt" | head -1; }
echo "| dedupe | SimHash lookup, Hamming ≤ 3 among 1,000,000 (Go benchmark) | $(field BenchmarkNear1M ns/op) ns | no scan |"
echo "| dedupe | fingerprint, Chinese text (Go benchmark, tokenizing included) | $(field BenchmarkPrintChinese MB/s) MB/s | |"
echo "| dedupe | fingerprint, English text (Go benchmark) | $(field BenchmarkPrintEnglish MB/s) MB/s | |"
