#!/usr/bin/env bash
# crawl.sh TOPIC SEEDS DB [PAGES] — a focused crawl, the closed loop
#
#   seed next --follow | fetch | segment | score [| FILTER] | seed add --archive ARCHIVE
#
# TOPIC  topic profile (YAML); checked before anything runs
# SEEDS  seed list: URLs one per line, or url records (seed search, seed hosts…);
#        "-" reads stdin; "" adds no seeds (resume from DB only: a DB never
#        seeded is refused). Lines that are not URLs are reported and left
#        out; the crawl goes on with the rest
# DB     the frontier: a SQLite file, created if missing, or a Redis URL
#        redis://HOST:PORT/DB?prefix=NAME or a PostgreSQL URL
#        postgres://USER@HOST:PORT/DATABASE?schema=NAME shared by any number of
#        machines, each running this same script; run again to resume
# PAGES  page budget over the whole crawl, resumed runs included (default 1000)
#
# The links score marks pruned (under thresholds.link) are kept in the frontier's reserve
# (seed add --pruned reserve) and leased when nothing above them is queued or out (seed
# next --reserve, on with a budget): the crawl goes on to PAGES while links remain.
# ADD_FLAGS="--pruned drop" drops them as before, and the crawl ends where its focus does.
#
# Resumable: kill any stage (even with SIGKILL) and crawl.sh stops the whole loop
# at once, names the stage and exits 1; run it again to go on. Pages recorded done
# are never fetched again. Ctrl-C (or SIGTERM) stops the loop and exits 130; kill
# crawl.sh itself, even with SIGKILL, and its stages stop with it (Linux: a
# parent-death signal). Either way seed next lets go of the URLs it leased as it
# ends, so the next run leases them at once. Only a run whose seed next was
# SIGKILLed leaves leases that run out after LEASE (default 10m, as seed next's);
# a re-run that finds them says so, and RELEASE=1 requeues them at once, when you
# know the old loop has ended. Seeding (seed urls | seed add) is watched the same
# way: seed add dying ends the run though SEEDS (a pipe, "-") is still open.
# Output can be appended to a log (>> crawl.log 2>&1): no stage reopens stdout.
#
# Environment (all optional):
#   BIN=bin                  where the commands are (else those on PATH)
#   ARCHIVE=DB.jsonl.zst     every scored doc, appended by seed add --archive (.zst or
#                            .gz: one frame per batch, so a kill costs at most the last
#                            frame, which every reader skips); with a Redis or PostgreSQL DB each
#                            machine keeps its own, crawl-HOSTNAME.jsonl.zst;
#                            ARCHIVE=none for none. One writer per archive (a lock): a
#                            second loop on this machine writes DB-2.jsonl.zst (or
#                            crawl-HOSTNAME-2…), or stops if ARCHIVE is set and taken
#   LINKS=shark+learned      score's link strategy: shark+learned measured best over the
#                            dev web's seven topics, with the keywords or a MODEL= judging
#                            (docs/realweb.md); shark, block-shark, heuristic, … also work
#   MODEL=                   a page model (score train, scripts/train.sh): score judges
#                            pages by it instead of by the profile's keywords alone
#   SCOPE=any                seed add --scope (host, site, any)
#   IN_FLIGHT=64             URLs leased and not yet back: the pipe's backlog
#   LEASE=10m  RELEASE=      lease length (a live loop renews its leases, so only a
#                            dead loop's run out); RELEASE=1 requeues every lease first
#   FILTER=                  a command of your own between score and seed add, run by
#                            bash -c: scored docs in, the same docs out, a line each as it
#                            comes (a doc that never reaches seed add stays leased), e.g.
#                            FILTER='jq -c --unbuffered ".links |= (. // [] | map(select(.url | contains(\"/print/\") | not)))"'
#                            (leaves print versions out of the frontier; docs/records.md runs it)
#   PROGRESS=auto            one status line from seed stats --brief on stderr: auto (redrawn
#                            every 2s on a terminal, else a line every minute), on (a
#                            line every PROGRESS_EVERY, default 10s), off
#   RENDER=never             fetch --render: auto renders in headless Chromium the pages
#                            whose HTML shows their content is built by scripts, always
#                            every page (docs/fetch.md, "Rendering"); RENDER_TABS=2
#   SEED_FLAGS=              extra flags for seed urls (e.g. --default-scheme https)
#   FETCH_FLAGS= SEGMENT_FLAGS= SCORE_FLAGS= ADD_FLAGS= NEXT_FLAGS=
#                            extra flags for each stage (word-split)
set -euo pipefail

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] && [ $# -le 4 ] || usage
topic=$1 seeds=$2 db=$3 pages=${4:-1000}
case $pages in ''|*[!0-9]*) echo "crawl.sh: PAGES must be a number, not '$pages'" >&2; exit 2;; esac
[ -f "$topic" ] || { echo "crawl.sh: no topic profile $topic" >&2; exit 2; }

if ((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] < 501)); then
  echo "crawl.sh: needs bash 5.1 or later (wait -n -p), this is $BASH_VERSION" >&2; exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
# Installed with make install instead: the commands on PATH.
if [ ! -x "$BIN/seed" ] && command -v seed >/dev/null; then BIN=$(dirname "$(command -v seed)"); fi
for c in seed fetch segment score; do
  [ -x "$BIN/$c" ] || { echo "crawl.sh: $BIN/$c not found: run 'make build' or set BIN" >&2; exit 2; }
done

LINKS=${LINKS:-shark+learned} SCOPE=${SCOPE:-any} IN_FLIGHT=${IN_FLIGHT:-64} LEASE=${LEASE:-10m}
read -r -a seed_flags <<<"${SEED_FLAGS:-}"
read -r -a fetch_flags <<<"${FETCH_FLAGS:-}"
case ${RENDER:-never} in
  never) ;;
  auto|always) fetch_flags+=(--render "$RENDER" --render-tabs "${RENDER_TABS:-2}") ;;
  *) echo "crawl.sh: RENDER=$RENDER: want never, auto or always" >&2; exit 2 ;;
esac
read -r -a segment_flags <<<"${SEGMENT_FLAGS:-}"
read -r -a score_flags <<<"${SCORE_FLAGS:-}"
if [ -n "${MODEL:-}" ]; then
  [ -f "$MODEL" ] || { echo "crawl.sh: MODEL=$MODEL: no such file (train one with scripts/train.sh or score train)" >&2; exit 2; }
  score_flags+=(--model "$MODEL")
fi
read -r -a add_flags <<<"${ADD_FLAGS:-}"
read -r -a next_flags <<<"${NEXT_FLAGS:-}"

# 0. The topic (and MODEL), checked by the two stages that read it, on no
#    input: a malformed profile, a model of another topic, or a profile the
#    link strategy cannot use (linkmodel without examples) stops here with
#    its errors, before anything runs.
for c in segment score; do
  check=()
  [ "$c" = score ] && check=(--links "$LINKS" --batch ${MODEL:+--model "$MODEL"})
  if ! msg=$("$BIN/$c" --topic "$topic" ${check[@]+"${check[@]}"} -q </dev/null 2>&1 >/dev/null); then
    printf '%s\n' "$msg" >&2
    echo "crawl.sh: the topic profile $topic${MODEL:+ or the model $MODEL} is not usable (above); nothing was crawled" >&2
    exit 2
  fi
done

# stats_field NAME: the first "NAME":NUMBER of seed stats --json (the
# top-level one: the states come first, per-depth rows later). --brief:
# the counts only, which cost the same at any size; the progress line
# polls them.
stats_json() { "$BIN/seed" stats --db "$db" --brief --json 2>/dev/null || true; }
stats_field() {
  local re="\"$1\":([0-9.e+-]+)"
  if [[ $2 =~ $re ]]; then echo "${BASH_REMATCH[1]}"; else echo 0; fi
}

# The stages are children of this script, joined by pipes, so that it sees
# any one of them end. Each pipe is a named pipe opened at once at both ends
# and unlinked: no file is left behind whatever becomes of the script, and
# a stage's stdout is its own fd (never reopened: a log that the script's
# output is appended to is not truncated). FOCUSCRAWL_PARENT_PID makes each
# stage stop (SIGTERM) when this script dies, even by SIGKILL (Linux).
pipe_fds=()
open_pipe() { # open_pipe NAME: the ends of a new pipe in NAME_r and NAME_w
  local d hold r w
  d=$(mktemp -d "${TMPDIR:-/tmp}/crawl.XXXXXX")
  mkfifo "$d/p"
  exec {hold}<>"$d/p" {r}<"$d/p" {w}>"$d/p" {hold}>&-
  rm -rf "$d"
  printf -v "$1_r" %s "$r"
  printf -v "$1_w" %s "$w"
  pipe_fds+=("$r" "$w")
}
close_fds() { local fd; for fd in "$@"; do eval "exec $fd>&-"; done; }
names=() pids=()
stage() { # stage NAME IN OUT COMMAND...: start one stage, IN and OUT pipe fds ("" keeps the script's)
  local name=$1 in=$2 out=$3
  shift 3
  (
    keep=" $in $out "
    for fd in "${pipe_fds[@]}"; do [[ $keep == *" $fd "* ]] || eval "exec $fd>&-"; done
    [ -z "$in" ] || eval "exec 0<&$in $in<&-"
    [ -z "$out" ] || eval "exec 1>&$out $out>&-"
    export FOCUSCRAWL_PARENT_PID=$$
    exec "$@"
  ) &
  names+=("$name") pids+=($!)
}

# running PID: the stage has not ended (a zombie not yet waited for has).
running() {
  if [ -d /proc/self ]; then
    local s
    s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    [[ $s != *") Z "* ]]
  else
    kill -0 "$1" 2>/dev/null
  fi
}
progress_pid=
end_progress() { :; }
# stop_all SIGNAL: send SIGNAL to every stage still running; after a grace
# period the rest get SIGKILL.
stop_all() {
  local p i
  for p in ${pids[@]+"${pids[@]}"}; do kill "-$1" "$p" 2>/dev/null || true; done
  for i in $(seq 30); do
    for p in ${pids[@]+"${pids[@]}"}; do running "$p" && break; p=; done
    [ -z "${p:-}" ] && break
    sleep 0.1
  done
  for p in ${pids[@]+"${pids[@]}"}; do kill -KILL "$p" 2>/dev/null || true; done
  [ ${#pids[@]} -eq 0 ] || wait "${pids[@]}" 2>/dev/null || true
  end_progress
}
# interrupted [SIGNAL]: stop the loop and exit 130, the interrupted code.
# Ctrl-C (SIGINT) reaches every stage too (their process group): they are
# given a moment to end of it, since a second signal kills a stage at once
# and seed next lets go of its leases as it ends. SIGTERM or SIGHUP sent
# to the script alone are passed on at once.
interrupted() {
  local p i
  echo "crawl.sh: interrupted; stopping the loop (run crawl.sh again to resume)" >&2
  if [ "${1:-INT}" = INT ]; then
    for i in $(seq 30); do
      for p in ${pids[@]+"${pids[@]}"}; do running "$p" && break; p=; done
      [ -z "${p:-}" ] && break
      sleep 0.1
    done
  fi
  stop_all TERM
  exit 130
}
describe() { # describe STATUS: how a stage ended
  if [ "$1" -gt 128 ]; then echo "was killed by SIG$(kill -l "$(($1 - 128))" 2>/dev/null || echo "$(($1 - 128))")"; else echo "failed with exit $1"; fi
}
trap 'interrupted INT' INT
trap 'interrupted TERM' TERM HUP

# 1. Seeds. Known URLs are left as they are, so adding them again on a resumed
#    run changes nothing. seed urls reports each line it cannot use as
#    NAME:LINE: reason and exits 3; the others are added all the same. Both
#    are watched as the loop's stages are: seed add dying (or ending early)
#    stops seed urls at once, though its input (a pipe, "-") is still open.
if [ -n "$seeds" ]; then
  exec {stdin_fd}<&0
  pipe_fds+=("$stdin_fd")
  open_pipe seeded
  stage "seed urls" "$stdin_fd" "$seeded_w" "$BIN/seed" urls ${seed_flags[@]+"${seed_flags[@]}"} "$seeds"
  stage "seed add" "$seeded_r" "" "$BIN/seed" add --db "$db" --scope "$SCOPE" ${add_flags[@]+"${add_flags[@]}"}
  close_fds "$seeded_r" "$seeded_w" "$stdin_fd"
  pipe_fds=()
  st=()
  while [ ${#st[@]} -lt 2 ]; do
    done_pid=
    set +e
    if [ -z "${st[0]:-}" ]; then
      wait -n -p done_pid "${pids[@]}" 2>/dev/null
    else
      wait -n -p done_pid "${pids[1]}" 2>/dev/null
    fi
    rc=$?
    set -e
    [ -n "$done_pid" ] || continue
    if [ "$done_pid" = "${pids[0]}" ]; then st[0]=$rc; else st[1]=$rc; fi
    if [ -z "${st[0]:-}" ] && [ -n "${st[1]:-}" ]; then
      # seed add ended first: seed urls has no reader left.
      kill -TERM "${pids[0]}" 2>/dev/null || true
      wait "${pids[0]}" 2>/dev/null || true
      st[0]=0
      case ${st[1]} in 0|3) st[1]=1; echo "crawl.sh: seed add ended before its input" >&2;; esac
    fi
  done
  pids=() names=()
  [ "${st[1]}" -ne 130 ] && [ "${st[0]}" -ne 130 ] || interrupted
  if [ "${st[0]}" -eq 3 ]; then
    echo "crawl.sh: some seed lines were rejected (above; SEED_FLAGS=--default-scheme https takes lines without a scheme); going on with the rest" >&2
  elif [ "${st[0]}" -ne 0 ]; then
    echo "crawl.sh: seed urls failed on $seeds (it $(describe "${st[0]}")); run crawl.sh again" >&2; exit 1
  fi
  case ${st[1]} in 0|3) ;; *) echo "crawl.sh: seed add failed on the seeds (it $(describe "${st[1]}")); run crawl.sh again" >&2; exit 1;; esac
fi

# 2. The budget left: PAGES minus the pages already fetched.
#    A frontier that was never begun is refused, not "resumed" empty: a
#    missing SQLite file, a Redis prefix without its crawl marker (a typo,
#    or a server that lost its data in a restart), a PostgreSQL schema
#    without the crawl's tables. seed stats says which (its message).
json=$(stats_json)
if [ -z "$json" ]; then
  "$BIN/seed" stats --db "$db" --brief --json 2>&1 >/dev/null | sed -e '/--help. for usage/d' -e 's/^/crawl.sh: /' >&2 || true
  echo "crawl.sh: nothing to resume in $db: give SEEDS to begin a crawl there (crawl.sh TOPIC seeds.txt DB PAGES)" >&2
  exit 2
fi
fetched=$(stats_field fetched "$json")
left=$((pages - fetched))
if [ "$left" -le 0 ]; then
  echo "crawl.sh: $fetched pages fetched already, budget $pages reached" >&2
  "$BIN/seed" stats --db "$db"
  exit 0
fi
echo "crawl.sh: $fetched pages fetched so far; crawling up to $left more" >&2

# 3. The archive of scored docs, written by seed add itself, one writer per
#    file (a lock). A default name another loop on this machine is writing
#    to (two workers of one Redis crawl, loops sharing a SQLite frontier)
#    gives way to the first free of NAME-2, NAME-3 …; an ARCHIVE of your
#    own that is taken stops the run.
archive=()
if [ -z "${ARCHIVE:-}" ]; then
  case $db in
    redis://*|rediss://*|unix://*|postgres://*|postgresql://*) ARCHIVE=crawl-$(hostname).jsonl.zst ;;
    *) ARCHIVE=${db%.db}.jsonl.zst ;;
  esac
  archive=(--archive-next-free)
fi
[ "$ARCHIVE" = none ] || archive+=(--archive "$ARCHIVE")

release=()
[ -n "${RELEASE:-}" ] && release=(--release)

# 4. The loop. The stages draw no progress lines of their own (they would
#    overwrite each other): the status line below is the crawl's.
quiet=(--progress off)
open_pipe urls; open_pipe pages; open_pipe docs; open_pipe scored
last=$scored_r
if [ -n "${FILTER:-}" ]; then open_pipe filtered; fi
# alive: held open by the script alone, so the status line's loop sees it
# close (EOF) when the script ends, however it ends.
open_pipe alive
stage "seed next" "" "$urls_w" "$BIN/seed" next --db "$db" --follow --max-pages "$left" --budget "$pages" \
  --in-flight "$IN_FLIGHT" --lease "$LEASE" "${quiet[@]}" \
  ${release[@]+"${release[@]}"} ${next_flags[@]+"${next_flags[@]}"} </dev/null
stage fetch "$urls_r" "$pages_w" "$BIN/fetch" "${quiet[@]}" ${fetch_flags[@]+"${fetch_flags[@]}"}
stage segment "$pages_r" "$docs_w" "$BIN/segment" --topic "$topic" "${quiet[@]}" ${segment_flags[@]+"${segment_flags[@]}"}
stage score "$docs_r" "$scored_w" "$BIN/score" --topic "$topic" --links "$LINKS" --db "$db" "${quiet[@]}" \
  ${score_flags[@]+"${score_flags[@]}"}
if [ -n "${FILTER:-}" ]; then
  stage "FILTER ($FILTER)" "$scored_r" "$filtered_w" bash -c "$FILTER"
  last=$filtered_r
fi
stage "seed add" "$last" "" "$BIN/seed" add --db "$db" --scope "$SCOPE" "${quiet[@]}" \
  ${archive[@]+"${archive[@]}"} ${add_flags[@]+"${add_flags[@]}"}
# The script keeps only the alive pipe's write end.
for fd in "${pipe_fds[@]}"; do [ "$fd" = "$alive_w" ] || [ "$fd" = "$alive_r" ] || close_fds "$fd"; done

# The status line: the frontier's own figures, every few seconds.
PROGRESS=${PROGRESS:-auto}
every=${PROGRESS_EVERY:-10}
redraw=
case $PROGRESS in
  auto) if [ -t 2 ]; then redraw=1 every=2; else every=60; fi ;;
  on) ;;
  off) every= ;;
  *) echo "crawl.sh: PROGRESS must be auto, on or off, not '$PROGRESS'" >&2; every= ;;
esac
if [ -n "$every" ]; then
  (
    close_fds "$alive_w"
    start=$SECONDS
    # Each wait is a read of the alive pipe: it times out after $every
    # seconds, or ends at once (EOF) when the script closes the pipe or dies.
    while :; do
      r=0
      read -r -t "$every" -u "$alive_r" _ || r=$?
      [ "$r" -gt 128 ] || exit 0
      j=$(stats_json)
      [ -n "$j" ] || continue
      f=$(stats_field fetched "$j")
      line=$(printf 'crawl.sh: %d of %d pages, %d relevant (harvest %.3f), %d queued, %d in reserve, %d in flight, %ds' \
        $((f - fetched)) "$left" "$(stats_field relevant "$j")" "$(stats_field harvest_rate "$j")" \
        "$(stats_field queued "$j")" "$(stats_field reserve "$j")" "$(stats_field leased "$j")" $((SECONDS - start)))
      if [ -n "$redraw" ]; then printf '\r\033[K%s' "$line" >&2; else printf '%s\n' "$line" >&2; fi
    done
  ) &
  progress_pid=$!
fi
close_fds "$alive_r"
end_progress() {
  [ -n "${alive_w:-}" ] || return 0
  close_fds "$alive_w"
  alive_w=
  [ -z "$progress_pid" ] || wait "$progress_pid" 2>/dev/null || true
  progress_pid=
  if [ -n "$redraw" ]; then printf '\r\033[K' >&2; fi
}

# failed STATUS: the stage's exit status is a failure (3: nothing left to do, is not).
failed() { [ "$1" -ne 0 ] && [ "$1" -ne 3 ]; }
# reap J: stage J has ended but was not waited for: wait for it, its status
# in $reaped. False when it still runs or was waited for already.
reap() {
  [ -z "${ended[$1]:-}" ] && ! running "${pids[$1]}" || return 1
  wait "${pids[$1]}" 2>/dev/null && reaped=0 || reaped=$?
  ended[$1]=1
  left_stages=$((left_stages - 1))
}

# Watch: the stages end in order (seed next first, when the budget is spent
# or nothing is left; each following stage at the end of its input). Any
# stage that fails, is killed or ends before its input did, stops the loop.
left_stages=${#pids[@]}
ended=()
while [ "$left_stages" -gt 0 ]; do
  waiting=()
  for i in "${!pids[@]}"; do [ -n "${ended[$i]:-}" ] || waiting+=("${pids[$i]}"); done
  done_pid=
  set +e
  # (2>/dev/null: bash's own notice of a killed job prints the stage's
  # subshell code; the line below names the stage instead.)
  wait -n -p done_pid "${waiting[@]}" 2>/dev/null
  rc=$?
  set -e
  [ -n "$done_pid" ] || continue
  for i in "${!pids[@]}"; do [ "${pids[$i]}" = "$done_pid" ] && break; done
  ended[$i]=1
  left_stages=$((left_stages - 1))
  name=${names[$i]}
  # Killed by SIGPIPE: a later stage has died first (its reader). Name that
  # one: it has ended, though the wait may have seen this one first.
  if [ "$rc" -eq 141 ]; then
    for ((j = i + 1; j < ${#pids[@]}; j++)); do
      if reap "$j" && failed "$reaped" && [ "$reaped" -ne 141 ]; then name=${names[$j]} rc=$reaped; fi
    done
  fi
  # Exit 130: a stage interrupted (Ctrl-C reaches every stage) or stopped by
  # SIGTERM: the loop was interrupted, not broken.
  [ "$rc" -ne 130 ] || interrupted
  if failed "$rc"; then
    echo "crawl.sh: stage $name $(describe "$rc"); stopping the loop (run crawl.sh again to resume)" >&2
    stop_all TERM
    exit 1
  fi
  # seed next has ended: the loop drains; the stages' summaries follow.
  [ "$i" -ne 0 ] || end_progress
  # A stage that ended at the end of its input because the stage before it
  # was killed: name the killed one (it has ended, not yet been waited for).
  for ((j = 0; j < i; j++)); do
    if reap "$j" && failed "$reaped"; then
      [ "$reaped" -ne 130 ] || interrupted
      echo "crawl.sh: stage ${names[$j]} $(describe "$reaped"); stopping the loop (run crawl.sh again to resume)" >&2
      stop_all TERM
      exit 1
    fi
  done
  for ((j = 0; j < i; j++)); do
    if [ -z "${ended[$j]:-}" ] && running "${pids[$j]}"; then
      echo "crawl.sh: stage $name ended before its input (${names[$j]} still runs); stopping the loop" >&2
      stop_all TERM
      exit 1
    fi
  done
done
end_progress

"$BIN/seed" stats --db "$db"
