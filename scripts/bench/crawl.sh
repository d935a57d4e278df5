#!/usr/bin/env bash
# scripts/bench/crawl.sh: the focused-crawl benchmark. For the bfs baseline and every link
# strategy of score, the same crawl of simweb's default web (seed 1, 300 sites, faults on):
# scripts/crawl.sh with examples/topics/forestry.yaml from `simweb seeds --sim-topic forestry`,
# 2,000 pages through fetch --proxy, then `simweb eval` against the truth. Prints markdown
# rows "| stage | metric | value | target |": harvest rate at 500 / 1,000 / 2,000 pages,
# discovery rate and topic drift at 2,000 pages, relevant sites found, wall time, and the
# link-priority AUC (simweb eval's link_priority: do the priorities rank the links to relevant
# pages above the others?).
#
# Each crawl runs against a fresh simweb (its flaky hosts remember which URLs they
# already failed once). Politeness is lowered for the simulation — no delay between
# requests to one host, Crawl-delay capped at 50 ms, short retry back-off — but
# robots.txt is fetched and obeyed. Everything a crawl wrote stays in out/bench/crawl/
# (the frontier, the scored docs as .zst, the eval JSON, the stages' stderr).
# At the end, `seed report --svg harvest` overlays every strategy's harvest curve (as score
# judged relevance) from their frontiers into docs/harvest.svg (HARVEST_SVG; "" for none).
#
# Env: STRATEGIES ("bfs best-first shark block-shark heuristic ipagerank skyreach linkmodel"),
#      PAGES (2000), SEED (1), SITES (300), TOPIC (forestry). Needs python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
strategies=${STRATEGIES:-bfs best-first shark block-shark heuristic ipagerank skyreach linkmodel}
pages=${PAGES:-2000}
seed=${SEED:-1}
sites=${SITES:-300}
topic=${TOPIC:-forestry}
profile=examples/topics/$topic.yaml
work=out/bench/crawl
bin=$work/bin
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/seed ./cmd/fetch ./cmd/segment ./cmd/score ./cmd/simweb

. scripts/bench/lib.sh
trap simweb_stop EXIT

results=()
for s in $strategies; do
  dir=$work/$s
  rm -rf "$dir"
  mkdir -p "$dir"
  simweb_start "$dir" serve -q --seed "$seed" --sites "$sites" --addr 127.0.0.1:0
  "$bin/simweb" seeds --seed "$seed" --sites "$sites" --sim-topic "$topic" >"$dir/seeds.txt"

  t0=$(date +%s%N)
  status=0
  BIN=$bin LINKS=$s ARCHIVE="$dir/scored.jsonl.zst" \
    FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s" \
    SEGMENT_FLAGS=-q SCORE_FLAGS=-q ADD_FLAGS=-q NEXT_FLAGS=-q \
    bash scripts/crawl.sh "$profile" "$dir/seeds.txt" "$dir/crawl.db" "$pages" >"$dir/stats.txt" 2>"$dir/crawl.log" || status=$?
  t1=$(date +%s%N)
  simweb_stop
  if [ "$status" -ne 0 ]; then
    echo "| crawl | $s | failed (exit $status): see $dir/crawl.log | |"
    continue
  fi
  echo $(( (t1 - t0) / 1000000 )) >"$dir/ms"
  archive=$dir/scored.jsonl.zst
  [ -e "$archive" ] || archive=$dir/scored.jsonl.gz # crawl.sh's fallback without the zstd command
  "$bin/simweb" eval -q --seed "$seed" --sites "$sites" --sim-topic "$topic" --at 500,1000,2000 \
    "$archive" >"$dir/eval.json"
  echo "crawl bench: $s: $(cat "$dir/eval.json")" >&2
  results+=("$s")
done

python3 - "$work" "$pages" "${results[@]}" <<'EOF'
import json, sys
work, pages, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
target = "best ≥ 0.85 @2000, bfs ≤ 0.40"
best, bfs = None, None
for n in names:
    e = json.load(open(f"{work}/{n}/eval.json"))
    ms = int(open(f"{work}/{n}/ms").read())
    at = e.get("harvest_at") or {}
    h = " / ".join(f"{at[k]:.3f}" if k in at else "–" for k in ("500", "1000", "2000"))
    print(f"| crawl | {n}: harvest@500/1000/2000 | {h} | {target} |")
    print(f"| crawl | {n}: discovery / drift @{e['pages']} | {e['discovery']:.3f} ({e['found']} of {e['exist']}) / {e['drift']:.3f} | — |")
    print(f"| crawl | {n}: relevant sites found, wall time | {e['relevant_sites']} of {e['relevant_sites_exist']}, {ms/1000:.1f} s | — |")
    lp = e.get("link_priority")
    if lp:
        print(f"| crawl | {n}: link-priority AUC (mean priority of links to relevant / other pages) | "
              f"{lp['auc']:.3f} ({lp['mean_relevant']:.3f} / {lp['mean_irrelevant']:.3f}) | > 0.5 |")
    if n == "bfs":
        bfs = max(at.values()) if at else e["harvest"]
    elif best is None or e["harvest"] > best[1]:
        best = (n, e["harvest"])
if best:
    print(f"| crawl | best strategy @{pages} | {best[0]} {best[1]:.3f} | ≥ 0.85 |")
if bfs is not None:
    print(f"| crawl | bfs: highest harvest at a checkpoint | {bfs:.3f} | ≤ 0.40 |")
EOF

# docs/harvest.svg: every strategy's cumulative harvest curve, one colour each.
svg=${HARVEST_SVG-docs/harvest.svg}
if [ -n "$svg" ] && [ ${#results[@]} -gt 0 ]; then
  dbs=()
  for n in "${results[@]}"; do dbs+=(--db "$work/$n/crawl.db" --label "$n"); done
  "$bin/seed" report "${dbs[@]}" --svg harvest -o "$svg"
  echo "crawl bench: harvest curves in $svg" >&2
fi
