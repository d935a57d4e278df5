#!/usr/bin/env bash
# scripts/bench/identical.sh OLD_BIN NEW_BIN: do two builds crawl alike? The same crawl of
# simweb (seed 1, default web without its timing-dependent faults: --no-faults, forestry, PAGES
# pages) runs with each build's stages, one URL
# in flight at a time (IN_FLIGHT=1, so the order does not depend on timing), on a SQLite and
# on a Redis frontier, for each strategy of STRATEGIES; the archives are compared record for
# record with timestamps and timings left out. Prints one line per crawl: "same" or the first
# record that differs (a failed fetch retried after its backoff may come back elsewhere: the
# wait is timing; the script says so when that is the only difference). Env: STRATEGIES ("shark shark+learned best-first"), STORES ("sqlite
# redis"), PAGES (300), REDIS (redis://127.0.0.1:6379/0).
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$1 new=$2
strategies=${STRATEGIES:-shark shark+learned best-first}
stores=${STORES:-sqlite redis}
pages=${PAGES:-300}
redis=${REDIS:-redis://127.0.0.1:6379/0}
work=out/bench/identical
. scripts/bench/lib.sh
trap simweb_stop EXIT

crawl() { # crawl BIN DIR STRATEGY STORE
  local bin=$1 dir=$2 links=$3 store=$4 db
  rm -rf "$dir"; mkdir -p "$dir"
  simweb_start "$dir" serve -q --seed 1 --no-faults --addr 127.0.0.1:0
  "$bin/simweb" seeds --seed 1 --sim-topic forestry >"$dir/seeds.txt"
  db=$dir/crawl.db
  [ "$store" = redis ] && db="$redis?prefix=identical-$$-$RANDOM"
  BIN=$bin LINKS=$links ARCHIVE="$dir/scored.jsonl" IN_FLIGHT=1 \
    FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s" \
    SEGMENT_FLAGS=-q SCORE_FLAGS=-q ADD_FLAGS=-q NEXT_FLAGS=-q \
    bash scripts/crawl.sh examples/topics/forestry.yaml "$dir/seeds.txt" "$db" "$pages" >"$dir/out.txt" 2>"$dir/crawl.log"
  simweb_stop
}

for store in $stores; do
  for s in $strategies; do
    crawl "$old" "$work/old-$store-$s" "$s" "$store"
    crawl "$new" "$work/new-$store-$s" "$s" "$store"
    python3 - "$work/old-$store-$s/scored.jsonl" "$work/new-$store-$s/scored.jsonl" "$store $s" <<'PY'
import json, sys
TIMES = {"fetched_at", "elapsed_ms", "timings", "time", "took_ms", "at", "date_fetched"}
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in TIMES and not k.endswith("_ms")}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
a = [clean(json.loads(l)) for l in open(sys.argv[1])]
b = [clean(json.loads(l)) for l in open(sys.argv[2])]
key = lambda r: json.dumps(r, sort_keys=True)
name, n = sys.argv[3], len(a)
if a == b:
    print(f"{name}: same ({n} records)")
    sys.exit(0)
# A failed fetch retried after a backoff (http 5xx, a timeout) comes back when its wait is
# over, which depends on timing even one URL at a time: the same records, with the failed
# ones elsewhere, is the same crawl.
ok = sorted(map(key, a)) == sorted(map(key, b))
if ok and [key(r) for r in a if not r.get("error")] == [key(r) for r in b if not r.get("error")]:
    moved = sum(1 for x, y in zip(a, b) if x != y and (x.get("error") or y.get("error")))
    print(f"{name}: same records ({n}); the others in the same order; failed fetches retried after a backoff at other places ({moved} positions)")
    sys.exit(0)
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
        print(f"{name}: record {i+1} differs ({', '.join(keys)}): {x.get('url')} vs {y.get('url')}")
        break
else:
    print(f"{name}: {len(a)} vs {len(b)} records")
PY
  done
done
