#!/usr/bin/env bash
# scripts/bench/workers.sh: the multi-machine recipe against one worker. WORKERS crawl.sh
# pipes share one Redis frontier (docs/frontier.md, "Running N machines") and crawl simweb's
# default web for PAGES pages in all, with NEXT_FLAGS; `simweb eval` measures their archives
# together. Each configuration runs RUNS times on a fresh simweb and a fresh prefix; the
# script prints one markdown row per configuration: harvest (mean and each run) and pages.
#
# Env: CONFIGS ("1:  2:--host-limit_1_--host-gap_1s  2:--host-limit_1  2:": WORKERS:NEXT_FLAGS
#      with _ for spaces), PAGES (800), RUNS (3), LINKS (shark), IN_FLIGHT (64),
#      DB (redis://127.0.0.1:6379/0; REDIS is its old name): the frontier of each run is a fresh
#      ?prefix= of a redis:// URL (its keys removed after the run), a fresh ?schema= of a
#      postgres:// URL (left in the database afterwards, as the SQLite files stay), or, with
#      DB=sqlite, a file in the run's folder; WORK (out/bench/workers): the runs' folders.
# A worker that fails is named on stderr; the script then exits 1 once the rows are printed.
# scripts/bench/stores.sh runs this script with one worker on each store.
set -euo pipefail
cd "$(dirname "$0")/../.."
configs=${CONFIGS:-"1: 2:--host-limit_1_--host-gap_1s 2:--host-limit_1 2:"}
pages=${PAGES:-800}
runs=${RUNS:-3}
links=${LINKS:-shark}
inflight=${IN_FLIGHT:-64}
dbbase=${DB:-${REDIS:-redis://127.0.0.1:6379/0}}
work=${WORK:-out/bench/workers}
bin=$work/bin
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/seed ./cmd/fetch ./cmd/segment ./cmd/score ./cmd/simweb

failed=0
. scripts/bench/lib.sh
trap simweb_stop EXIT

for config in $configs; do
  n=${config%%:*}
  flags=${config#*:}
  flags=${flags//_/ }
  harvests=()
  for run in $(seq "$runs"); do
    dir=$work/w$n-$(echo "$flags" | tr -c 'a-z0-9' '-')-$run
    rm -rf "$dir"
    mkdir -p "$dir"
    simweb_start "$dir" serve -q --seed 1 --addr 127.0.0.1:0
    "$bin/simweb" seeds --seed 1 --sim-topic forestry >"$dir/seeds.txt"
    name=workers_bench_$$_${n}_${run}_$RANDOM
    case $dbbase in
      sqlite) db=$dir/crawl.db ;;
      postgres://*\?*|postgresql://*\?*) db="$dbbase&schema=$name" ;;
      postgres://*|postgresql://*) db="$dbbase?schema=$name" ;;
      *) db="$dbbase?prefix=$name" ;;
    esac
    "$bin/seed" urls "$dir/seeds.txt" | "$bin/seed" add -q --db "$db"
    pids=()
    for i in $(seq "$n"); do
      BIN=$bin LINKS=$links ARCHIVE="$dir/w$i.jsonl" LEASE=30s IN_FLIGHT=$inflight \
        FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s --user-agent worker$i" \
        SEGMENT_FLAGS=-q SCORE_FLAGS=-q ADD_FLAGS=-q NEXT_FLAGS="-q $flags" \
        bash scripts/crawl.sh examples/topics/forestry.yaml "" "$db" "$pages" >"$dir/w$i.out" 2>"$dir/w$i.log" &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || { echo "workers bench: a worker failed: see $dir" >&2; failed=1; }; done
    simweb_stop
    if [[ $db =~ ^redis://([^/:?]+)(:([0-9]+))?(/([0-9]+))? ]]; then
      rcli=(redis-cli -h "${BASH_REMATCH[1]}" -p "${BASH_REMATCH[3]:-6379}" -n "${BASH_REMATCH[5]:-0}")
      "${rcli[@]}" --scan --pattern "{$name}*" | xargs -r -n 1000 "${rcli[@]}" unlink >/dev/null
    fi
    cat "$dir"/w*.jsonl | "$bin/simweb" eval -q --seed 1 --sim-topic forestry >"$dir/eval.json"
    h=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); print("%.3f %d" % (e["harvest"], e["pages"]))' "$dir/eval.json")
    harvests+=("$h")
    echo "workers bench: $n worker(s) [$flags] run $run: harvest, pages $h" >&2
  done
  python3 - "$n" "$flags" "${harvests[@]}" <<'PY'
import sys
n, flags, rows = sys.argv[1], sys.argv[2], sys.argv[3:]
hs = [float(r.split()[0]) for r in rows]
ps = [int(r.split()[1]) for r in rows]
print(f"| {n} | `{flags or '(none)'}` | {sum(hs)/len(hs):.3f} | {' / '.join(f'{h:.3f}' for h in hs)} | {sum(ps)/len(ps):.0f} |")
PY
done
exit "$failed"
