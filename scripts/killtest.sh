#!/usr/bin/env bash
# killtest.sh [KILLS] [PAGES] — kill a random stage of crawl.sh again and again
#
# A crawl of PAGES pages (default 3000) of the simulated web is run by
# scripts/crawl.sh, on a SQLite frontier, or (STORE=redis, STORE=postgres) on a Redis or
# PostgreSQL one.
# KILLS times (default 20) a random process gets SIGKILL a random 0.5–2.5 s
# into a run, and the crawl is started again (RELEASE=1: the killed loop has
# ended); then it runs to its budget. In most rounds the candidates are the
# loop's stages (seed next, fetch, segment, score, seed add) and crawl.sh
# itself; every fourth round (2, 6, 10 …) is a seeding round: the seeds come
# from a pipe that stays open ({ cat seeds; sleep; } | crawl.sh … -), and the
# candidates are the seeding seed urls and seed add, and crawl.sh. It checks,
# and prints:
#   - crawl.sh exits non-zero, naming the stage, within LIMIT (10) s of each
#     kill; killed itself, its stages all end within LIMIT s;
#   - no process of the run outlives it; nothing is left in TMPDIR;
#   - no URL is left leased at the end; SQLite: PRAGMA integrity_check;
#     Redis: the per-state counters seed stats reads agree with the records;
#   - zero URLs lost: every URL leased at a kill is done, failed or queued
#     again (parked, waiting and the reserve count as queued), and every URL
#     the frontier records as fetched is in the archive;
#   - the archive reads back whole: no damaged frame, no unreadable line (seed
#     add removes a frame a kill cut before it appends, and says so);
#   - URLs leased and not yet back at each kill (what can be fetched twice) ≤
#     the in-flight window, and the pages that reached seed add twice.
# Exit 0 when every check holds. Needs /proc; sqlite3(1) for SQLite,
# redis-cli(1) for Redis, psql(1) for PostgreSQL; loopback only.
#
# Environment: BIN (bin), OUT (killtest-out, removed first), STORE (sqlite,
# redis or postgres), REDIS (redis://127.0.0.1:6379/0: the server; the crawl gets a prefix
# of its own, deleted at the end), POSTGRES (postgres://postgres@127.0.0.1:5432/test:
# the crawl gets a schema of its own, dropped at the end), IN_FLIGHT (64), LIMIT (10), SIMWEB_FLAGS
# (extra flags for simweb serve), SEED (random seed), LINKS (crawl.sh's).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-20} pages=${2:-3000}
BIN=${BIN:-bin} OUT=${OUT:-killtest-out} IN_FLIGHT=${IN_FLIGHT:-64} LIMIT=${LIMIT:-10}
STORE=${STORE:-sqlite}
RANDOM=${SEED:-$$}
for c in seed fetch segment score simweb; do
  [ -x "$BIN/$c" ] || { echo "killtest: $BIN/$c missing: run make build" >&2; exit 2; }
done
[ -d /proc/self ] || { echo "killtest: finds the stages through /proc" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
archive=$OUT/scored.jsonl.zst

# The frontier, and the queries the checks make of it, by store.
#   leased_urls        the URLs leased now, one a line
#   state_urls S…      the URLs in the states S (numbers), one a line
#   fetched_urls       the URLs recorded fetched: done, or failed after a fetch
#   store_counts       "queued leased done failed" (queued with the reserve)
#   store_integrity    "ok", or what is wrong
case $STORE in
  sqlite)
    command -v sqlite3 >/dev/null || { echo "killtest: sqlite3(1) is needed" >&2; exit 2; }
    db=$OUT/crawl.db
    sql() { sqlite3 -separator ' ' "$db" "$1"; }
    leased_urls() { sql "SELECT url FROM urls WHERE state = 1"; }
    state_urls() { local IFS=,; sql "SELECT url FROM urls WHERE state IN ($*)"; }
    # (A failed URL without a fetch time was never fetched: robots.txt rules
    # learned after it was queued, or its host given up. It has no page.)
    fetched_urls() { sql "SELECT url FROM urls WHERE state = 2 OR (state = 3 AND fetched_at IS NOT NULL)"; }
    store_counts() { sql "SELECT sum(state = 0), sum(state = 1), sum(state = 2), sum(state = 3) FROM urls"; }
    store_integrity() { sql "PRAGMA integrity_check"; }
    store_cleanup() { :; }
    ;;
  redis)
    command -v redis-cli >/dev/null || { echo "killtest: redis-cli(1) is needed" >&2; exit 2; }
    REDIS=${REDIS:-redis://127.0.0.1:6379/0}
    prefix=killtest-$$-$(date +%s)
    db="$REDIS?prefix=$prefix"
    redis-cli -u "$REDIS" ping >/dev/null || { echo "killtest: no Redis server at $REDIS" >&2; exit 2; }
    # A read-only script over the crawl's records (docs/frontier.md, "Key
    # layout"): a record is a MessagePack array, url first, state third,
    # fetch time 14th (0 on a failed URL never fetched).
    dump_lua='
local P, what = KEYS[1], ARGV[1]
local out = {}
local function rec(id)
  local v = redis.call("HGET", P .. "u:" .. (string.byte(id, 7) * 256 + string.byte(id, 8)), id)
  if v then return cmsgpack.unpack(v) end
end
if what == "leased" then
  for _, id in ipairs(redis.call("ZRANGE", P .. "leased", 0, -1)) do
    local r = rec(id)
    if r and r[3] == 1 then out[#out + 1] = r[1] end
  end
  return out
end
for b = 0, 65535 do
  local kv = redis.call("HGETALL", P .. "u:" .. b)
  for i = 2, #kv, 2 do
    local r = cmsgpack.unpack(kv[i])
    local f = 0
    if r[14] and r[14] ~= 0 then f = 1 end
    out[#out + 1] = r[3] .. " " .. f .. " " .. r[1]
  end
end
return out'
    rcli() { redis-cli -u "$REDIS" "$@"; }
    leased_urls() { rcli EVAL "$dump_lua" 1 "{$prefix}:" leased; }
    all_urls() { rcli EVAL "$dump_lua" 1 "{$prefix}:" all; }
    state_urls() { all_urls | awk -v want=" $* " 'index(want, " " $1 " ") { print $3 }'; }
    fetched_urls() { all_urls | awk '$1 == 2 || ($1 == 3 && $2 == 1) { print $3 }'; }
    store_counts() {
      all_urls | awk '{ n[$1]++ } END { printf "%d %d %d %d\n", n[0] + n[6], n[1], n[2], n[3] }'
    }
    # The per-state counters (what seed stats reads) agree with the records.
    store_integrity() {
      local json want got s
      json=$("$BIN/seed" stats --db "$db" --brief --json)
      got=$(all_urls | awk '{ n[$1]++ } END { for (s = 0; s <= 6; s++) printf "%d ", n[s] }')
      want=
      for s in queued leased done failed parked waiting reserve; do
        if [[ $json =~ \"$s\":([0-9]+) ]]; then want+="${BASH_REMATCH[1]} "; else want+="0 "; fi
      done
      if [ "$want" = "$got" ]; then echo ok; else echo "counters $want, records $got (queued … reserve)"; fi
    }
    store_cleanup() {
      [ -n "${KEEP:-}" ] && return 0
      rcli --scan --pattern "{$prefix}:*" | xargs -r -n 500 redis-cli -u "$REDIS" unlink >/dev/null || true
    }
    ;;
  postgres)
    command -v psql >/dev/null || { echo "killtest: psql(1) is needed" >&2; exit 2; }
    POSTGRES=${POSTGRES:-postgres://postgres@127.0.0.1:5432/test}
    schema=killtest_$$_$(date +%s)
    case $POSTGRES in
      *\?*) db="$POSTGRES&schema=$schema" ;;
      *) db="$POSTGRES?schema=$schema" ;;
    esac
    psql "$POSTGRES" -XAtc 'SELECT 1' >/dev/null || { echo "killtest: no PostgreSQL server at $POSTGRES" >&2; exit 2; }
    # The crawl's tables (docs/frontier.md, "The schema"): states are
    # numbered as on SQLite; a URL of the reserve is queued, with reserve set.
    sql() { PGOPTIONS="-c search_path=$schema" psql "$POSTGRES" -XAtF ' ' -c "$1"; }
    leased_urls() { sql "SELECT url FROM urls WHERE state = 1"; }
    state_urls() { local IFS=,; sql "SELECT url FROM urls WHERE state IN ($*)"; }
    fetched_urls() { sql "SELECT url FROM urls WHERE state = 2 OR (state = 3 AND fetched_at IS NOT NULL)"; }
    store_counts() {
      sql "SELECT count(*) FILTER (WHERE state = 0), count(*) FILTER (WHERE state = 1),
        count(*) FILTER (WHERE state = 2), count(*) FILTER (WHERE state = 3) FROM urls"
    }
    # A leased URL has its lease's end and owner, and each host's URL
    # count (hosts.urls, kept by seed add) is its URLs'.
    store_integrity() {
      local bad
      bad=$(sql "SELECT (SELECT count(*) FROM urls WHERE state = 1 AND (lease_until IS NULL OR lease_owner IS NULL)),
        (SELECT count(*) FROM hosts h WHERE urls <> (SELECT count(*) FROM urls u WHERE u.host_id = h.id))")
      if [ "$bad" = "0 0" ]; then echo ok; else echo "leases without their fields, hosts miscounted: $bad"; fi
    }
    store_cleanup() {
      [ -n "${KEEP:-}" ] && return 0
      PGOPTIONS="-c client_min_messages=warning" psql "$POSTGRES" -XAtqc "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null || true
    }
    ;;
  *) echo "killtest: STORE=$STORE: want sqlite, redis or postgres" >&2; exit 2 ;;
esac

read -r -a simweb_flags <<<"${SIMWEB_FLAGS:-}"
"$BIN/simweb" serve --addr 127.0.0.1:0 -q ${simweb_flags[@]+"${simweb_flags[@]}"} >"$OUT/simweb.out" &
simweb=$!
crawl_pid= producer=
cleanup() {
  [ -z "$crawl_pid" ] || kill -KILL -- "-$crawl_pid" 2>/dev/null || true
  [ -z "$producer" ] || kill "$producer" 2>/dev/null || true
  kill "$simweb" 2>/dev/null || true
  wait 2>/dev/null || true
  store_cleanup
}
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$OUT/simweb.out" ] && break; sleep 0.05; done
proxy=$(sed -n 's/.*"proxy":"\([^"]*\)".*/\1/p' "$OUT/simweb.out")
case $proxy in http://*) ;; *) echo "killtest: simweb did not start" >&2; exit 1;; esac
"$BIN/simweb" seeds --sim-topic forestry >"$OUT/seeds.txt"

mkdir -p "$OUT/tmp"
export TMPDIR=$OUT/tmp BIN ARCHIVE=$archive IN_FLIGHT PROGRESS=off RELEASE=1 \
  FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s"
run_crawl() { # run_crawl RUN [seeding]: crawl.sh in its own session, in the background
  if [ "${2:-}" = seeding ]; then
    # The seeds come from a pipe its producer keeps open, so the seeding
    # stages are still running at the kill.
    rm -f "$OUT/seeds.fifo"
    mkfifo "$OUT/seeds.fifo"
    { cat "$OUT/seeds.txt"; exec sleep 60; } >"$OUT/seeds.fifo" &
    producer=$!
    setsid bash scripts/crawl.sh examples/topics/forestry.yaml - "$db" "$pages" \
      <"$OUT/seeds.fifo" >"$OUT/run$1.out" 2>"$OUT/run$1.err" &
  else
    setsid bash scripts/crawl.sh examples/topics/forestry.yaml "$OUT/seeds.txt" "$db" "$pages" \
      </dev/null >"$OUT/run$1.out" 2>"$OUT/run$1.err" &
  fi
  crawl_pid=$!
}
# stages PID: "name pid" of crawl.sh's children (seed next, seed urls and
# seed add by their subcommand).
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
# end_run: a run the test gives up on is killed whole before the next.
end_run() {
  kill -KILL -- "-$crawl_pid" 2>/dev/null || true
  { wait "$crawl_pid"; } 2>/dev/null || true
  crawl_pid=
  if [ -n "$producer" ]; then kill "$producer" 2>/dev/null || true; wait "$producer" 2>/dev/null || true; producer=; fi
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
fail=0
problem() { echo "killtest: FAIL: $*" >&2; fail=1; }

printf '%-5s %-20s %5s %8s %9s\n' kill stage exit exit_ms in_flight
: >"$OUT/leased-at-kills.txt"
max_window=0 sum_window=0 done_kills=0 exit_ms_max=0 seeding_kills=0 self_kills=0
for k in $(seq "$kills"); do
  kill -0 "$simweb" 2>/dev/null || { problem "simweb (the web crawled) has died"; break; }
  round=loop
  [ $((k % 4)) -eq 2 ] && round=seeding
  run_crawl "$k" "$round"
  sleep "$((RANDOM % 21 + 5))e-1"
  if [ "$round" = seeding ]; then
    # The seeding stages, before the loop starts (it cannot while the
    # seeds' pipe is open).
    mapfile -t list < <(stages "$crawl_pid")
    for _ in $(seq 50); do
      [ "${#list[@]}" -ge 2 ] && break
      sleep 0.1
      mapfile -t list < <(stages "$crawl_pid")
    done
    [ "${#list[@]}" -eq 2 ] || { problem "run $k: want the two seeding stages, found: ${list[*]:-none} ($(tail -n 2 "$OUT/run$k.err" | tr '\n' ' '))"; end_run; break; }
  else
    # All five stages; fewer while they start (a loaded machine may take a
    # while), or once the crawl has ended at its budget.
    mapfile -t list < <(stages "$crawl_pid")
    for _ in $(seq 50); do
      [ "${#list[@]}" -lt 5 ] && kill -0 "$crawl_pid" 2>/dev/null || break
      sleep 0.1
      mapfile -t list < <(stages "$crawl_pid")
    done
    if [ "${#list[@]}" -lt 5 ]; then
      if ! kill -0 "$crawl_pid" 2>/dev/null; then
        wait "$crawl_pid" || true
        echo "killtest: run $k ended before its kill (the budget is spent?)" >&2
        crawl_pid=
        break
      fi
      problem "run $k: only ${#list[@]} stages: ${list[*]} ($(tail -n 2 "$OUT/run$k.err" | tr '\n' ' '))"
      end_run
      break
    fi
  fi
  # crawl.sh itself is one of the candidates: its stages must end with it.
  list+=("crawl.sh $crawl_pid")
  pick=${list[RANDOM % ${#list[@]}]}
  name=${pick% *} pid=${pick#* }
  t0=$(now_ms)
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
  { wait "$crawl_pid"; } 2>/dev/null || rc=$?  # (bash would say "Killed")
  left=$(stages "$crawl_pid" | wc -l)
  # every process of the run's session is gone?
  if pgrep -s "$crawl_pid" >/dev/null 2>&1; then problem "run $k: processes of the killed run still run: $(pgrep -s "$crawl_pid" -a | tr '\n' ';')"; fi
  crawl_pid=
  if [ -n "$producer" ]; then
    kill "$producer" 2>/dev/null || true
    wait "$producer" 2>/dev/null || true
    producer=
    rm -f "$OUT/seeds.fifo"
  fi
  [ "$left" -eq 0 ] || problem "run $k: $left stages left"
  [ $((t1 - t0)) -le $((LIMIT * 1000)) ] || problem "run $k: exit $((t1 - t0)) ms after the kill (limit ${LIMIT}s)"
  [ "$rc" -ne 0 ] || problem "run $k: exit 0 after $name was killed"
  want=${name/_/ }
  case $round/$name in
    */crawl.sh) self_kills=$((self_kills + 1)) ;;
    seeding/*)
      grep -q "$want failed on .* (it was killed by SIGKILL)" "$OUT/run$k.err" || problem "run $k: stderr does not name the seeding $want: $(tail -n 2 "$OUT/run$k.err")" ;;
    *) grep -q "stage $want was killed" "$OUT/run$k.err" || problem "run $k: stderr does not name $want" ;;
  esac
  [ "$round" = seeding ] && [ "$name" != crawl.sh ] && seeding_kills=$((seeding_kills + 1))
  # No stale state: no pipe directory left behind.
  stale=$(find "$OUT/tmp" -mindepth 1 | head -n 3)
  [ -z "$stale" ] || problem "run $k: left behind in TMPDIR: $stale"
  leased_urls >"$OUT/leased-now.txt"
  window=$(wc -l <"$OUT/leased-now.txt")
  cat "$OUT/leased-now.txt" >>"$OUT/leased-at-kills.txt"
  [ "$window" -le "$IN_FLIGHT" ] || problem "run $k: $window URLs leased at the kill, over the window of $IN_FLIGHT"
  ((window > max_window)) && max_window=$window
  sum_window=$((sum_window + window)) done_kills=$((done_kills + 1))
  (((t1 - t0) > exit_ms_max)) && exit_ms_max=$((t1 - t0))
  label=$name
  [ "$round" = seeding ] && [ "$name" != crawl.sh ] && label="seeding $want"
  printf '%-5s %-20s %5s %8s %9s\n' "$k" "$label" "$rc" "$((t1 - t0))" "$window"
done

# The last run, to the budget.
run_crawl final
rc=0
wait "$crawl_pid" || rc=$?
if pgrep -s "$crawl_pid" >/dev/null 2>&1; then problem "processes of the final run outlive it: $(pgrep -s "$crawl_pid" -a | tr '\n' ';')"; fi
crawl_pid=
[ "$rc" -eq 0 ] || problem "the final run failed (exit $rc): $(tail -n 3 "$OUT/runfinal.err")"

integrity=$(store_integrity)
[ "$integrity" = ok ] || problem "integrity: $integrity"
read -r queued leased done_n failed < <(store_counts)
[ "$leased" -eq 0 ] || problem "$leased URLs left leased"
# Lost: leased at a kill and now neither done, failed nor queued — queued
# counting the URLs parked with their host (4), waiting for a retry (5) or
# in the reserve (6), which the frontier holds and will lease again.
sort -u "$OUT/leased-at-kills.txt" >"$OUT/leased-at-kills.sorted"
state_urls 0 2 3 4 5 6 | sort -u >"$OUT/accounted.txt"
lost=$(comm -23 "$OUT/leased-at-kills.sorted" "$OUT/accounted.txt" | wc -l)
[ "$lost" -eq 0 ] || problem "$lost URLs leased at a kill are neither done, failed nor queued (parked, waiting and the reserve count as queued)"
# Every URL recorded fetched is in the archive (seed add writes it there
# before it records the page), whatever frames the kills cut.
# (A redirected page is recorded under its final URL too.)
"$BIN/seed" urls "$archive" 2>"$OUT/archive.log" \
  | sed -n -e h -e 's/^{"url":"\([^"]*\)".*/\1/p' -e g -e 's/^{"url":"[^"]*","depth":[0-9]*,"site":"[^"]*","final_url":"\([^"]*\)".*/\1/p' \
  | sort -u >"$OUT/archived.txt" || true
fetched_urls | sort -u >"$OUT/fetched.txt"
missing=$(comm -23 "$OUT/fetched.txt" "$OUT/archived.txt" | wc -l)
[ "$missing" -eq 0 ] || problem "$missing fetched URLs are not in the archive (first: $(comm -23 "$OUT/fetched.txt" "$OUT/archived.txt" | head -c 200))"
twice=$(sed -n 's/.* \([0-9]*\) duplicates.*/\1/p' "$OUT/archive.log" | tail -n 1)
# The archive reads back whole: a frame a kill cut is removed by the next
# seed add before it appends (it says so: the runs' stderr), so no reader
# meets a damaged frame; seed add archives only the lines it accepted.
damaged=$(grep -c 'damaged zstd frame' "$OUT/archive.log" || true)
[ "$damaged" -eq 0 ] || problem "$damaged damaged frames in the archive: $(grep -m 1 'damaged zstd frame' "$OUT/archive.log")"
repaired=$(cat "$OUT"/run*.err | grep -c 'last zstd frame was cut' || true)
unreadable=$(sed -n 's/.* \([0-9]*\) rejected$/\1/p' "$OUT/archive.log" | tail -n 1)
[ "${unreadable:-0}" -eq 0 ] || problem "$unreadable archive lines cannot be read back (first: $(grep -m 1 ':[0-9]*: ' "$OUT/archive.log"))"

echo
echo "store                    $STORE"
echo "kills                    $done_kills ($seeding_kills of a seeding stage, $self_kills of crawl.sh itself)"
echo "slowest exit after a kill ${exit_ms_max} ms (limit ${LIMIT} s)"
echo "in flight at a kill      max $max_window, total $sum_window (window $IN_FLIGHT)"
echo "pages seed add got twice ${twice:-0}"
echo "frontier                 $done_n done, $failed failed, $queued queued, $leased leased; integrity $integrity"
echo "URLs lost                $lost; fetched URLs missing from the archive $missing"
echo "archive                  $(wc -l <"$OUT/archived.txt") URLs; cut frames removed on reopening $repaired; damaged frames $damaged; unreadable lines ${unreadable:-0}"
[ "$fail" -eq 0 ] && echo "killtest: all checks hold" || echo "killtest: some checks FAILED (above)"
exit "$fail"
