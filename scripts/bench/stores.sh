#!/usr/bin/env bash
# scripts/bench/stores.sh: one crawl.sh pipe on each frontier store, to compare their
# harvests: simweb's default web (seed 1, forestry), PAGES pages, LINKS, RUNS runs a store,
# each on a fresh simweb and a fresh frontier; `simweb eval` measures each archive. It prints
# one markdown row per store: harvest (mean and each run) and pages.
#
# Env: STORES ("sqlite redis"; "postgres" too with a server), PAGES (800), RUNS (3),
#      LINKS (shark+learned), IN_FLIGHT (64), REDIS (redis://127.0.0.1:6379/0),
#      POSTGRES (postgres://postgres@127.0.0.1:5432/test).
set -euo pipefail
cd "$(dirname "$0")/../.."
stores=${STORES:-sqlite redis}
pages=${PAGES:-800}
runs=${RUNS:-3}
links=${LINKS:-shark+learned}
inflight=${IN_FLIGHT:-64}
redis=${REDIS:-redis://127.0.0.1:6379/0}
postgres=${POSTGRES:-postgres://postgres@127.0.0.1:5432/test}
work=out/bench/stores
bin=$work/bin
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/seed ./cmd/fetch ./cmd/segment ./cmd/score ./cmd/simweb

server=
stop() { [ -z "$server" ] || { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; server=; }; }
trap stop EXIT

for store in $stores; do
  harvests=()
  for run in $(seq "$runs"); do
    dir=$work/$store-$run
    rm -rf "$dir"
    mkdir -p "$dir"
    name=stores-bench-$$-$run-$RANDOM
    case $store in
      sqlite) db=$dir/crawl.db ;;
      redis) db="$redis?prefix=$name" ;;
      postgres) db="$postgres?schema=${name//-/_}" ;;
      *) echo "stores bench: unknown store $store" >&2; exit 2 ;;
    esac
    "$bin/simweb" serve -q --seed 1 --addr 127.0.0.1:0 >"$dir/hello.json" 2>"$dir/simweb.log" &
    server=$!
    for _ in $(seq 100); do [ -s "$dir/hello.json" ] && break; sleep 0.05; done
    proxy=$(sed -n 's/.*"proxy":"\([^"]*\)".*/\1/p' "$dir/hello.json")
    [ -n "$proxy" ] || { echo "stores bench: simweb did not start" >&2; exit 1; }
    "$bin/simweb" seeds --seed 1 --sim-topic forestry >"$dir/seeds.txt"
    BIN=$bin LINKS=$links ARCHIVE="$dir/archive.jsonl" IN_FLIGHT=$inflight \
      FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s" \
      SEGMENT_FLAGS=-q SCORE_FLAGS=-q ADD_FLAGS=-q NEXT_FLAGS=-q \
      bash scripts/crawl.sh examples/topics/forestry.yaml "$dir/seeds.txt" "$db" "$pages" >"$dir/crawl.out" 2>"$dir/crawl.log" ||
      { echo "stores bench: the $store crawl failed: see $dir/crawl.log" >&2; exit 1; }
    stop
    "$bin/simweb" eval -q --seed 1 --sim-topic forestry <"$dir/archive.jsonl" >"$dir/eval.json"
    h=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print("%.3f %d" % (e["harvest"], e["pages"]))' "$dir/eval.json")
    harvests+=("$h")
    echo "stores bench: $store run $run: harvest, pages $h" >&2
    if [ "$store" = redis ]; then
      hostport=${redis#redis://}; hostport=${hostport%%/*}
      redis-cli -h "${hostport%:*}" -p "${hostport#*:}" -n "${redis##*/}" --scan --pattern "{$name}*" |
        xargs -r -n 1000 redis-cli -h "${hostport%:*}" -p "${hostport#*:}" -n "${redis##*/}" unlink >/dev/null
    fi
  done
  python3 - "$store" "$links" "${harvests[@]}" <<'PY'
import sys
store, links, rows = sys.argv[1], sys.argv[2], sys.argv[3:]
hs = [float(r.split()[0]) for r in rows]
ps = [int(r.split()[1]) for r in rows]
print(f"| {store} | `{links}` | {sum(hs)/len(hs):.3f} | {' / '.join(f'{h:.3f}' for h in hs)} | {sum(ps)/len(ps):.0f} |")
PY
done
