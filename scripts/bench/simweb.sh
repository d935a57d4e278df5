#!/usr/bin/env bash
# scripts/bench/simweb.sh: the simulated web's own figures. Builds
# bin/simweb, then measures: building the default web (process start-up),
# writing its truth, pages per second rendered in process and served over a
# loopback proxy connection on one core (Go benchmarks), its size and the
# miniature crawler's harvest rates (bfs vs a keyword best-first) on the
# forestry topic. Prints markdown rows "| stage | metric | value | target |".
# Env: SEED (1), SITES (300).
set -euo pipefail
cd "$(dirname "$0")/../.."
seed=${SEED:-1}
sites=${SITES:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p bin
go build -trimpath -o bin/simweb ./cmd/simweb

# Start-up: build the web and print the seeds (best of 3).
best=
for _ in 1 2 3; do
  t0=$(date +%s%N)
  bin/simweb seeds --seed "$seed" --sites "$sites" --sim-topic forestry >/dev/null
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
echo "| simweb | start-up (build $sites sites, print seeds) | ${best} ms | < 500 ms |"

# Truth: every URL of the finite web as JSON Lines.
t0=$(date +%s%N)
/usr/bin/time -f '%M' -o "$work/truth.rss" bin/simweb truth --seed "$seed" --sites "$sites" >"$work/truth.jsonl"
t1=$(date +%s%N)
lines=$(wc -l <"$work/truth.jsonl")
ms=$(( (t1 - t0) / 1000000 ))
echo "| simweb | truth: URLs written | $lines in ${ms} ms | — |"
echo "| simweb | truth: peak RSS | $(( $(cat "$work/truth.rss") / 1024 )) MB | — |"
bin/simweb sites --seed "$seed" --sites "$sites" >"$work/sites.jsonl"
awk -v sites="$(wc -l <"$work/sites.jsonl")" '
  /"status":200/ && /"kind":"(home|list|article|product|thread)"/ { pages++ }
  /"status":200/ && /"kind":"(home|list|article|product|thread)"/ && /"forestry":1/ { rel++ }
  END { printf "| simweb | size: sites / content pages / forestry-relevant pages | %d / %d / %d | 20k-60k pages |\n", sites, pages, rel }' "$work/truth.jsonl"

# Speed: Go benchmarks on one core.
go test -run '^$' -bench 'Handler|ServeLoopback' -benchtime 5000x -cpu 1 -count 1 ./internal/simweb >"$work/bench.txt"
awk '/^BenchmarkHandler/ { for (i = 1; i <= NF; i++) if ($(i+1) == "pages/s") p = $i; else if ($(i+1) == "bytes/page") b = $i
       printf "| simweb | content pages/s rendered in process, 1 core (avg %d bytes) | %.0f | ≥ 1000 |\n", b, p }
     /^BenchmarkServeLoopback/ { for (i = 1; i <= NF; i++) if ($(i+1) == "pages/s") p = $i
       printf "| simweb | content pages/s served over a loopback proxy connection, 1 core | %.0f | ≥ 1000 |\n", p }' "$work/bench.txt"

# Structure: the miniature crawlers of crawl_test.go, 2,000 pages each.
go test -run TestCrawlTargetsReachable -count 1 -v ./internal/simweb >"$work/crawl.txt" 2>&1 || true
sed -n 's/.*forestry, 2000 pages: bfs harvest \([0-9.]*\).*bfs over hosts \([0-9.]*\).*focused harvest \([0-9.]*\).*/\1 \2 \3/p' "$work/crawl.txt" | {
  read -r bfs spread focused || { echo "| simweb | mini-crawler harvest | failed: see go test -run TestCrawlTargetsReachable | — |"; exit 0; }
  echo "| simweb | mini-crawler harvest at 2,000 pages, bfs from seeds (forestry) | $bfs | ≤ 0.40 |"
  echo "| simweb | mini-crawler harvest at 2,000 pages, bfs spread over hosts (forestry) | $spread | ≤ 0.40 |"
  echo "| simweb | mini-crawler harvest at 2,000 pages, keyword best-first (forestry) | $focused | ≥ 0.85 possible |"
}
