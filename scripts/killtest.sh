#!/usr/bin/env bash
# killtest.sh [KILLS] [PAGES] — kill a random stage of crawl.sh again and again
#
# A crawl of PAGES pages (default 3000) of the simulated web is run by
# scripts/crawl.sh; KILLS times (default 20) a random stage (seed next, fetch,
# segment, score, seed add, or crawl.sh itself) gets SIGKILL a random 0.5–2.5 s into a run, and the
# crawl is started again (RELEASE=1: the killed loop has ended). Then it runs to
# its budget. It checks, and prints:
#   - crawl.sh exits non-zero, naming the stage, within LIMIT (10) s of each kill;
#     killed itself, its stages all end within LIMIT s;
#   - no stage outlives crawl.sh; nothing is left in TMPDIR (no pipe directory);
#   - the frontier passes PRAGMA integrity_check, and no URL is left leased;
#   - zero URLs lost: every URL leased at a kill is done, failed or queued again,
#     and every URL the frontier records as fetched is in the archive;
#   - URLs leased and not yet back at each kill (what can be fetched twice) ≤ the
#     in-flight window, and the pages that reached seed add twice.
# Exit 0 when every check holds. Needs sqlite3(1) and /proc; loopback only.
#
# Environment: BIN (bin), OUT (killtest-out, removed first), IN_FLIGHT (64),
# LIMIT (10), SIMWEB_FLAGS (extra flags for simweb serve), SEED (random seed).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-20} pages=${2:-3000}
BIN=${BIN:-bin} OUT=${OUT:-killtest-out} IN_FLIGHT=${IN_FLIGHT:-64} LIMIT=${LIMIT:-10}
RANDOM=${SEED:-$$}
for c in seed fetch segment score simweb; do
  [ -x "$BIN/$c" ] || { echo "killtest: $BIN/$c missing: run make build" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "killtest: sqlite3(1) is needed" >&2; exit 2; }
[ -d /proc/self ] || { echo "killtest: finds the stages through /proc" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
db=$OUT/crawl.db archive=$OUT/scored.jsonl.zst

read -r -a simweb_flags <<<"${SIMWEB_FLAGS:-}"
"$BIN/simweb" serve --addr 127.0.0.1:0 -q ${simweb_flags[@]+"${simweb_flags[@]}"} >"$OUT/simweb.out" &
simweb=$!
crawl_pid=
cleanup() {
  [ -z "$crawl_pid" ] || kill -KILL -- "-$crawl_pid" 2>/dev/null || true
  kill "$simweb" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$OUT/simweb.out" ] && break; sleep 0.05; done
proxy=$(sed -n 's/.*"proxy":"\([^"]*\)".*/\1/p' "$OUT/simweb.out")
case $proxy in http://*) ;; *) echo "killtest: simweb did not start" >&2; exit 1;; esac
"$BIN/simweb" seeds --sim-topic forestry >"$OUT/seeds.txt"

mkdir -p "$OUT/tmp"
export TMPDIR=$OUT/tmp BIN ARCHIVE=$archive IN_FLIGHT PROGRESS=off RELEASE=1 \
  FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s"
run_crawl() { # run_crawl RUN: crawl.sh in its own session, in the background
  setsid bash scripts/crawl.sh examples/topics/forestry.yaml "$OUT/seeds.txt" "$db" "$pages" \
    >"$OUT/run$1.out" 2>"$OUT/run$1.err" &
  crawl_pid=$!
}
# stages PID: "name pid" of crawl.sh's children (seed next and seed add by
# their subcommand).
stages() {
  local f p s rest args
  for f in /proc/[0-9]*/stat; do
    p=${f#/proc/} p=${p%/stat}
    s=$(cat "$f" 2>/dev/null) || continue
    rest=${s##*) }
    read -r -a args <<<"$rest"
    [ "${args[1]}" = "$1" ] && [ "${args[0]}" != Z ] || continue
    mapfile -d '' -t args <"/proc/$p/cmdline" 2>/dev/null || continue
    case ${args[0]##*/} in
      seed) echo "seed_${args[1]} $p" ;;
      fetch | segment | score) echo "${args[0]##*/} $p" ;;
    esac
  done
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
fail=0
problem() { echo "killtest: FAIL: $*" >&2; fail=1; }

printf '%-5s %-12s %5s %8s %9s\n' kill stage exit exit_ms in_flight
: >"$OUT/leased-at-kills.txt"
max_window=0 sum_window=0 done_kills=0 exit_ms_max=0
for k in $(seq "$kills"); do
  run_crawl "$k"
  sleep "$((RANDOM % 21 + 5))e-1"
  mapfile -t list < <(stages "$crawl_pid")
  if [ "${#list[@]}" -lt 5 ]; then
    # The crawl ended (budget reached) or had not started all stages yet.
    if ! kill -0 "$crawl_pid" 2>/dev/null; then
      wait "$crawl_pid" || true
      echo "killtest: run $k ended before its kill (the budget is spent?)" >&2
      crawl_pid=
      break
    fi
    sleep 0.5
    mapfile -t list < <(stages "$crawl_pid")
    [ "${#list[@]}" -ge 5 ] || { problem "run $k: only ${#list[@]} stages: ${list[*]}"; break; }
  fi
  # crawl.sh itself is one of the candidates: its stages must end with it.
  list+=("crawl.sh $crawl_pid")
  pick=${list[RANDOM % ${#list[@]}]}
  name=${pick% *} pid=${pick#* }
  t0=$(now_ms)
  # The stage may have ended on its own since it was listed (its run
  # reached the budget): then this round kills nothing, and says so.
  if ! kill -KILL "$pid" 2>/dev/null; then
    # The stage ended on its own since it was listed: the run is ending
    # at its budget, as when no stage is left to kill (above).
    wait "$crawl_pid" || true
    echo "killtest: run $k: $name ended before its kill (the budget is spent?)" >&2
    crawl_pid=
    break
  fi
  ended=
  while [ $(($(now_ms) - t0)) -lt $((LIMIT * 1000 + 5000)) ]; do
    # crawl.sh killed: ended when the last process of its session has.
    if [ "$name" = crawl.sh ]; then
      pgrep -s "$crawl_pid" >/dev/null 2>&1 || { ended=1; break; }
    elif ! kill -0 "$crawl_pid" 2>/dev/null; then ended=1; break; fi
    sleep 0.02
  done
  t1=$(now_ms)
  if [ -z "$ended" ]; then
    problem "run $k: crawl.sh still runs $((t1 - t0)) ms after $name was killed"
    kill -KILL -- "-$crawl_pid" 2>/dev/null || true
  fi
  rc=0
  wait "$crawl_pid" || rc=$?
  left=$(stages "$crawl_pid" | wc -l)
  # every process of the run's session is gone?
  if pgrep -s "$crawl_pid" >/dev/null 2>&1; then problem "run $k: processes of the killed run still run: $(pgrep -s "$crawl_pid" -a | tr '\n' ';')"; fi
  crawl_pid=
  [ "$left" -eq 0 ] || problem "run $k: $left stages left"
  [ $((t1 - t0)) -le $((LIMIT * 1000)) ] || problem "run $k: exit $((t1 - t0)) ms after the kill (limit ${LIMIT}s)"
  [ "$rc" -ne 0 ] || problem "run $k: exit 0 after $name was killed"
  want=${name/_/ }
  [ "$name" = crawl.sh ] || grep -q "stage $want was killed" "$OUT/run$k.err" || problem "run $k: stderr does not name $want"
  # No stale state: no pipe directory left behind.
  stale=$(find "$OUT/tmp" -mindepth 1 | head -n 3)
  [ -z "$stale" ] || problem "run $k: left behind in TMPDIR: $stale"
  window=$(sqlite3 "$db" "SELECT count(*) FROM urls WHERE state = 1")
  sqlite3 "$db" "SELECT url FROM urls WHERE state = 1" >>"$OUT/leased-at-kills.txt"
  [ "$window" -le "$IN_FLIGHT" ] || problem "run $k: $window URLs leased at the kill, over the window of $IN_FLIGHT"
  ((window > max_window)) && max_window=$window
  sum_window=$((sum_window + window)) done_kills=$((done_kills + 1))
  (((t1 - t0) > exit_ms_max)) && exit_ms_max=$((t1 - t0))
  printf '%-5s %-12s %5s %8s %9s\n' "$k" "$name" "$rc" "$((t1 - t0))" "$window"
done

# The last run, to the budget.
run_crawl final
rc=0
wait "$crawl_pid" || rc=$?
crawl_pid=
[ "$rc" -eq 0 ] || problem "the final run failed (exit $rc): $(tail -n 3 "$OUT/runfinal.err")"

integrity=$(sqlite3 "$db" "PRAGMA integrity_check")
[ "$integrity" = ok ] || problem "integrity_check: $integrity"
read -r queued leased done_n failed < <(sqlite3 -separator ' ' "$db" \
  "SELECT sum(state = 0), sum(state = 1), sum(state = 2), sum(state = 3) FROM urls")
[ "$leased" -eq 0 ] || problem "$leased URLs left leased"
# Lost: leased at a kill and now neither done, failed nor queued — queued
# counting the URLs parked with their host (4) or waiting for a retry (5),
# which the frontier holds and will lease again.
sort -u "$OUT/leased-at-kills.txt" >"$OUT/leased-at-kills.sorted"
sqlite3 "$db" "SELECT url FROM urls WHERE state IN (0, 2, 3, 4, 5)" | sort -u >"$OUT/accounted.txt"
lost=$(comm -23 "$OUT/leased-at-kills.sorted" "$OUT/accounted.txt" | wc -l)
[ "$lost" -eq 0 ] || problem "$lost URLs leased at a kill are neither done, failed nor queued (parked and waiting count as queued)"
# Every URL recorded fetched is in the archive (seed add writes it there
# before it records the page), whatever frames the kills cut.
# (A redirected page is recorded under its final URL too.)
"$BIN/seed" urls "$archive" 2>"$OUT/archive.log" \
  | sed -n -e h -e 's/^{"url":"\([^"]*\)".*/\1/p' -e g -e 's/^{"url":"[^"]*","depth":[0-9]*,"site":"[^"]*","final_url":"\([^"]*\)".*/\1/p' \
  | sort -u >"$OUT/archived.txt" || true
# (A failed URL without a fetch time was never fetched: robots.txt rules
# learned after it was queued, or its host given up. It has no page.)
sqlite3 "$db" "SELECT url FROM urls WHERE state = 2 OR (state = 3 AND fetched_at IS NOT NULL)" | sort -u >"$OUT/fetched.txt"
missing=$(comm -23 "$OUT/fetched.txt" "$OUT/archived.txt" | wc -l)
[ "$missing" -eq 0 ] || problem "$missing fetched URLs are not in the archive (first: $(comm -23 "$OUT/fetched.txt" "$OUT/archived.txt" | head -c 200))"
twice=$(sed -n 's/.* \([0-9]*\) duplicates.*/\1/p' "$OUT/archive.log" | tail -n 1)
damaged=$(grep -c 'damaged zstd frame' "$OUT/archive.log" || true)
# Every archived line is readable: seed add archives only what it accepted.
unreadable=$(sed -n 's/.* \([0-9]*\) rejected$/\1/p' "$OUT/archive.log" | tail -n 1)
[ "${unreadable:-0}" -eq 0 ] || problem "$unreadable archive lines cannot be read back (first: $(grep -m 1 ':[0-9]*: ' "$OUT/archive.log"))"

echo
echo "kills                    $done_kills"
echo "slowest exit after a kill ${exit_ms_max} ms (limit ${LIMIT} s)"
echo "in flight at a kill      max $max_window, total $sum_window (window $IN_FLIGHT)"
echo "pages seed add got twice ${twice:-0}"
echo "frontier                 $done_n done, $failed failed, $queued queued, $leased leased; integrity_check $integrity"
echo "URLs lost                $lost; fetched URLs missing from the archive $missing"
echo "archive                  $(wc -l <"$OUT/archived.txt") URLs; damaged frames skipped $damaged; unreadable lines ${unreadable:-0}"
[ "$fail" -eq 0 ] && echo "killtest: all checks hold" || echo "killtest: some checks FAILED (above)"
exit "$fail"
