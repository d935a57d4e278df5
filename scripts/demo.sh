#!/usr/bin/env bash
# make demo: a focused crawl of the built-in simulated web, offline, in about a minute.
#
#   1. seed urls: seed lists normalised and de-duplicated into url records;
#   2. simweb serve: 300 virtual sites on one loopback port, with ground truth;
#   3. scripts/crawl.sh: seed next --follow | fetch | segment | score | seed add, 300 pages,
#      topic forestry, starting from simweb's portal seeds;
#   4. simweb eval: the harvest rate and discovery rate of that crawl against the truth;
#   5. dedupe: the relevant pages as de-duplicated knowledge records.
#
# Everything goes to demo-out/ (removed first). PAGES=N changes the budget.
set -euo pipefail
cd "$(dirname "$0")/.."
out=demo-out
pages=${PAGES:-300}
topic=examples/topics/forestry.yaml
rm -rf "$out"
mkdir -p "$out"
for c in seed fetch segment score dedupe simweb; do
  [ -x "bin/$c" ] || { echo "demo: bin/$c missing: run make build" >&2; exit 1; }
done
say() { printf '\n== %s\n' "$*" >&2; }

say "1. seed urls: the example seed lists plus a few messy lines"
printf '%s\n' \
  'HTTP://Example.COM:80/a/../b#x' \
  'https://WWW.FORESTRY.GOV.CN:443/#top' \
  '{"url":"http://bücher.example/katalog?b=2&a=1","meta":{"from":"demo"}}' \
  'mailto:someone@example.com' >"$out/messy.txt"
status=0
bin/seed urls --rejects "$out/rejects.txt" examples/seeds/*.txt "$out/messy.txt" >"$out/urls.jsonl" || status=$?
[ "$status" -eq 3 ] || { echo "demo: seed urls should exit 3 (one rejected line), got $status" >&2; exit 1; }
echo "exit status 3: the mailto: line was rejected (kept in $out/rejects.txt); the last records:" >&2
tail -3 "$out/urls.jsonl"

say "2. simweb: a simulated web on loopback"
bin/simweb serve --addr 127.0.0.1:0 >"$out/simweb.out" 2>"$out/simweb.log" &
simweb=$!
trap 'kill "$simweb" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$out/simweb.out" ] && break; sleep 0.1; done
proxy=$(head -n 1 "$out/simweb.out" | sed 's/.*"proxy":"\([^"]*\)".*/\1/')
case $proxy in http://*) ;; *) echo "demo: simweb did not start (see $out/simweb.log)" >&2; exit 1;; esac
echo "serving on $proxy; seeds:" >&2
bin/simweb seeds --topic forestry | tee "$out/seeds.txt" >&2

say "3. a focused crawl of $pages pages (scripts/crawl.sh)"
start=$(date +%s)
FETCH_FLAGS="-q --proxy $proxy" SEGMENT_FLAGS=-q SCORE_FLAGS=-q ADD_FLAGS=-q NEXT_FLAGS=-q \
  ARCHIVE="$out/scored.jsonl" \
  bash scripts/crawl.sh "$topic" "$out/seeds.txt" "$out/crawl.db" "$pages" >"$out/stats.txt"
echo "done in $(( $(date +%s) - start ))s; the frontier (its 'relevant' is score's verdict against" \
  "the topic's page threshold; step 4 checks the crawl against the truth):" >&2
head -n 9 "$out/stats.txt" >&2

say "4. measured against simweb's ground truth"
bin/simweb eval --topic forestry "$out/scored.jsonl" >"$out/eval.json"
cat "$out/eval.json"

say "5. knowledge: relevant pages, de-duplicated"
bin/dedupe -q "$out/scored.jsonl" >"$out/knowledge.jsonl"
echo "$(wc -l <"$out/knowledge.jsonl") knowledge records in $out/knowledge.jsonl; the first:" >&2
sed -n 's/^{"url":"\([^"]*\)".*"title":"\([^"]*\)".*/  \2  \1/p' "$out/knowledge.jsonl" | head -n 5 >&2
