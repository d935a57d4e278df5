#!/usr/bin/env bash
# make demo: a focused crawl of the built-in simulated web, offline, in well under two minutes.
#
#   1. simweb serve: 300 virtual sites on one free loopback port, with ground truth;
#   2. scripts/crawl.sh: seed next --follow | fetch | segment | score | seed add, about 2,000
#      pages, topic examples/topics/forestry.yaml, from simweb's seeds for forestry (three
#      portal homes, a portal channel, one forestry authority), fetched through simweb as
#      an HTTP proxy;
#   3. simweb eval: the crawl against the truth — harvest rate, relevant pages found,
#      relevant sites;
#   4. dedupe: the pages score judged relevant, as de-duplicated knowledge records;
#   5. a summary.
#
# Politeness is lowered for the simulation (no pause between two requests to one host,
# robots.txt Crawl-delay capped at 50 ms, short retry back-off): simweb is one local process,
# not 300 servers. robots.txt is still fetched and obeyed (Disallow).
#
# Everything goes to demo-out/ (removed first). Environment: PAGES (2000), LINKS (shark: the
# best link strategy of docs/benchmarks.md; any of score's --links), OUT (demo-out).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-demo-out}
pages=${PAGES:-2000}
links=${LINKS:-shark}
topic=examples/topics/forestry.yaml
for c in seed fetch segment score dedupe simweb; do
  [ -x "bin/$c" ] || { echo "demo: bin/$c missing: run make build (or make demo)" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out"
say() { printf '\n== %s\n' "$*" >&2; }
t_start=$(date +%s%N)

say "1. simweb: a simulated web on loopback"
bin/simweb serve --addr 127.0.0.1:0 >"$out/simweb.out" 2>"$out/simweb.log" &
simweb=$!
trap 'kill "$simweb" 2>/dev/null; wait "$simweb" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$out/simweb.out" ] && break; sleep 0.05; done
proxy=$(head -n 1 "$out/simweb.out" | sed -n 's/.*"proxy":"\([^"]*\)".*/\1/p')
case $proxy in http://*) ;; *) echo "demo: simweb did not start (see $out/simweb.log)" >&2; exit 1;; esac
echo "serving 300 sites on $proxy; the crawl starts from:" >&2
bin/simweb seeds --sim-topic forestry | tee "$out/seeds.txt" | sed 's/^/  /' >&2

say "2. a focused crawl of $pages pages (scripts/crawl.sh, LINKS=$links)"
t0=$(date +%s%N)
LINKS=$links ARCHIVE="$out/scored.jsonl.zst" \
  FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s" \
  SEGMENT_FLAGS=-q SCORE_FLAGS=-q ADD_FLAGS=-q NEXT_FLAGS=-q \
  bash scripts/crawl.sh "$topic" "$out/seeds.txt" "$out/crawl.db" "$pages" >"$out/stats.txt" 2>"$out/crawl.log"
t1=$(date +%s%N)
crawl_ms=$(( (t1 - t0) / 1000000 ))
archive=$out/scored.jsonl.zst
echo "done in $((crawl_ms / 1000)).$(( crawl_ms % 1000 / 100 ))s; the frontier:" >&2
head -n 9 "$out/stats.txt" | sed 's/^/  /' >&2

say "3. the crawl against simweb's ground truth (simweb eval)"
bin/simweb eval -q --sim-topic forestry "$archive" >"$out/eval.json"
bin/simweb eval -q --sim-topic forestry --format text "$archive" >"$out/eval.txt"
# The figures of docs/report.md, "The figures, defined once": pages fetched and the harvest rate
# are the frontier's (seed stats, seed report); simweb eval judges every archived record.
archived=$(sed -n 's/^{"topic":"[a-z]*","pages":\([0-9]*\).*/\1/p' "$out/eval.json")
stat() { sed -n "s/^$1  *\([0-9.]*\) *\$/\1/p" "$out/stats.txt" | head -n 1; }
fetched=$(stat fetched)
putback=$(stat 'put back')
relevant=$(stat relevant)
harvest=$(stat 'harvest rate')

say "4. knowledge: the pages score judged relevant, de-duplicated (dedupe)"
bin/dedupe -q "$archive" >"$out/knowledge.jsonl"
records=$(grep -vc '"error":' <"$out/knowledge.jsonl" || true)
folded=$( (grep -o '"duplicates":\[[^]]*\]' "$out/knowledge.jsonl" || true) | grep -o '"http[^"]*"' | wc -l)
t_end=$(date +%s%N)

say "5. summary"
{
  printf 'pages fetched        %s in %d.%ds (%d pages/s), link strategy %s\n' "$fetched" $((crawl_ms / 1000)) \
    $((crawl_ms % 1000 / 100)) $((fetched * 1000 / (crawl_ms > 0 ? crawl_ms : 1))) "$links"
  printf 'harvest rate         %s by score'"'"'s verdicts (%s relevant; seed stats, seed report)\n' "$harvest" "$relevant"
  if [ "$archived" -eq $((fetched + putback)) ]; then
    printf 'archived records     %s: the pages fetched and %s fetches put back for a retry\n' "$archived" "$putback"
  else
    printf 'archived records     %s: the pages fetched, %s fetches put back for a retry and %d fetches of URLs already recorded done (a redirect'"'"'s target fetched on its own)\n' \
      "$archived" "$putback" $((archived - fetched - putback))
  fi
  echo "against simweb's truth, over the archived records:"
  tail -n +2 "$out/eval.txt"
  printf 'knowledge records    %s (pages score judged relevant, %s copies folded in by dedupe) in %s\n' \
    "$records" "$folded" "$out/knowledge.jsonl"
  printf 'whole demo           %ds; every file is in %s/\n' $(((t_end - t_start) / 1000000000)) "$out"
} | tee "$out/summary.txt"
echo "first knowledge records:" >&2
sed -n 's/^{"url":"\([^"]*\)".*"title":"\([^"]*\)".*/  \2  \1/p' "$out/knowledge.jsonl" | head -n 5 >&2 || true
bin/seed report --db "$out/crawl.db" --title "make demo: a focused crawl of simweb (LINKS=$links)" -o "$out/report.html"
echo "crawl report         $out/report.html (open it in a browser; docs/report.md)"
