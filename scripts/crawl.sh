#!/usr/bin/env bash
# crawl.sh TOPIC SEEDS DB [PAGES] — a focused crawl, the closed loop
#
#   seed next --follow | fetch | segment | score [| FILTER] | seed add --archive ARCHIVE
#
# TOPIC  topic profile (YAML); checked before anything runs
# SEEDS  seed list: URLs one per line, or url records (seed search, seed hosts…);
#        "-" reads stdin; "" adds no seeds (resume from DB only). Lines that are
#        not URLs are reported and left out; the crawl goes on with the rest
# DB     the frontier: a SQLite file, created if missing, or a Redis URL
#        redis://HOST:PORT/DB?prefix=NAME shared by any number of machines,
#        each running this same script; run again to resume
# PAGES  page budget over the whole crawl, resumed runs included (default 1000)
#
# The links score marks pruned (under thresholds.link) are kept in the frontier's reserve
# (seed add --pruned reserve) and leased when nothing above them is queued or out (seed
# next --reserve, on with a budget): the crawl goes on to PAGES while links remain.
# ADD_FLAGS="--pruned drop" drops them as before, and the crawl ends where its focus does.
#
# Resumable: kill any stage (even with SIGKILL) and crawl.sh stops the whole loop
# at once, names the stage and exits 1; run it again to go on. Pages recorded done
# are never fetched again; URLs leased by the killed run come back when their lease
# (LEASE, default 10m, as seed next's) runs out — or at once with RELEASE=1, when you know the old
# loop has ended.
#
# Environment (all optional):
#   BIN=bin                  where the commands are (else those on PATH)
#   ARCHIVE=DB.jsonl.zst     every scored doc, appended by seed add --archive (.zst or
#                            .gz: one frame per batch, so a kill costs at most the last
#                            frame, which every reader skips); with a Redis DB each
#                            machine keeps its own, crawl-HOSTNAME.jsonl.zst;
#                            ARCHIVE=none for none
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
#   PROGRESS=auto            one status line from seed stats on stderr: auto (redrawn
#                            every 2s on a terminal, else a line every minute), on (a
#                            line every PROGRESS_EVERY, default 10s), off
#   SEED_FLAGS=              extra flags for seed urls (e.g. --default-scheme https)
#   FETCH_FLAGS= SEGMENT_FLAGS= SCORE_FLAGS= ADD_FLAGS= NEXT_FLAGS=
#                            extra flags for each stage (word-split)
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
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
# top-level one: the states come first, per-depth and per-host rows later).
stats_json() { "$BIN/seed" stats --db "$db" --json 2>/dev/null || true; }
stats_field() {
  local re="\"$1\":([0-9.e+-]+)"
  if [[ $2 =~ $re ]]; then echo "${BASH_REMATCH[1]}"; else echo 0; fi
}

# 1. Seeds. Known URLs are left as they are, so adding them again on a resumed
#    run changes nothing. seed urls reports each line it cannot use as
#    NAME:LINE: reason and exits 3; the others are added all the same.
if [ -n "$seeds" ]; then
  set +e
  "$BIN/seed" urls ${seed_flags[@]+"${seed_flags[@]}"} "$seeds" \
    | "$BIN/seed" add --db "$db" --scope "$SCOPE" ${add_flags[@]+"${add_flags[@]}"}
  st=("${PIPESTATUS[@]}")
  set -e
  if [ "${st[0]}" -eq 3 ]; then
    echo "crawl.sh: some seed lines were rejected (above; SEED_FLAGS=--default-scheme https takes lines without a scheme); going on with the rest" >&2
  elif [ "${st[0]}" -ne 0 ]; then
    echo "crawl.sh: seed urls failed (exit ${st[0]}) on $seeds" >&2; exit 1
  fi
  case ${st[1]} in 0|3) ;; *) echo "crawl.sh: seed add failed (exit ${st[1]}) on the seeds" >&2; exit 1;; esac
fi

# 2. The budget left: PAGES minus the pages already fetched.
json=$(stats_json)
[ -n "$json" ] || { echo "crawl.sh: no frontier in $db: give seeds" >&2; exit 2; }
fetched=$(stats_field fetched "$json")
left=$((pages - fetched))
if [ "$left" -le 0 ]; then
  echo "crawl.sh: $fetched pages fetched already, budget $pages reached" >&2
  "$BIN/seed" stats --db "$db"
  exit 0
fi
echo "crawl.sh: $fetched pages fetched so far; crawling up to $left more" >&2

# 3. The archive of scored docs, written by seed add itself.
case $db in
  redis://*|rediss://*|unix://*) ARCHIVE=${ARCHIVE:-crawl-$(hostname).jsonl.zst} ;;
  *) ARCHIVE=${ARCHIVE:-${db%.db}.jsonl.zst} ;;
esac
archive=()
[ "$ARCHIVE" = none ] || archive=(--archive "$ARCHIVE")

release=()
[ -n "${RELEASE:-}" ] && release=(--release)

# 4. The loop: each stage a child of this script, joined by named pipes, so
#    that the script sees any one of them end. The stages draw no progress
#    lines of their own (they would overwrite each other): the status line
#    below is the crawl's.
pipes=$(mktemp -d "${TMPDIR:-/tmp}/crawl.XXXXXX")
names=() pids=()
stage() { # stage NAME IN OUT COMMAND...: start one stage
  local name=$1 in=$2 out=$3
  shift 3
  "$@" <"$in" >"$out" &
  names+=("$name") pids+=($!)
}
quiet=(--progress off)
mkfifo "$pipes/urls" "$pipes/pages" "$pipes/docs" "$pipes/scored"
stage "seed next" /dev/null "$pipes/urls" "$BIN/seed" next --db "$db" --follow --max-pages "$left" --budget "$pages" \
  --in-flight "$IN_FLIGHT" --lease "$LEASE" "${quiet[@]}" \
  ${release[@]+"${release[@]}"} ${next_flags[@]+"${next_flags[@]}"}
stage fetch "$pipes/urls" "$pipes/pages" "$BIN/fetch" "${quiet[@]}" ${fetch_flags[@]+"${fetch_flags[@]}"}
stage segment "$pipes/pages" "$pipes/docs" "$BIN/segment" --topic "$topic" "${quiet[@]}" ${segment_flags[@]+"${segment_flags[@]}"}
stage score "$pipes/docs" "$pipes/scored" "$BIN/score" --topic "$topic" --links "$LINKS" --db "$db" "${quiet[@]}" \
  ${score_flags[@]+"${score_flags[@]}"}
last=$pipes/scored
if [ -n "${FILTER:-}" ]; then
  mkfifo "$pipes/filtered"
  stage "FILTER ($FILTER)" "$pipes/scored" "$pipes/filtered" bash -c "$FILTER"
  last=$pipes/filtered
fi
stage "seed add" "$last" /dev/stdout "$BIN/seed" add --db "$db" --scope "$SCOPE" "${quiet[@]}" \
  ${archive[@]+"${archive[@]}"} ${add_flags[@]+"${add_flags[@]}"}

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
progress_pid=
if [ -n "$every" ]; then
  (
    start=$SECONDS
    # The sleep runs in the background and is waited for, so that TERM
    # (end_progress) ends the loop at once, not when a 60 s sleep ends.
    nap=
    trap 'kill $nap 2>/dev/null; exit 0' TERM
    while sleep "$every" & nap=$!; wait "$nap"; do
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
end_progress() {
  [ -n "$progress_pid" ] || return 0
  kill "$progress_pid" 2>/dev/null || true
  wait "$progress_pid" 2>/dev/null || true
  progress_pid=
  if [ -n "$redraw" ]; then printf '\r\033[K' >&2; fi
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
# stop_all SIGNAL: send SIGNAL to every stage still running; after a grace
# period the rest get SIGKILL.
stop_all() {
  local p i
  for p in "${pids[@]}"; do kill "-$1" "$p" 2>/dev/null || true; done
  for i in $(seq 30); do
    for p in "${pids[@]}"; do running "$p" && break; p=; done
    [ -z "$p" ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
  end_progress
  rm -rf "$pipes"
}
trap 'echo "crawl.sh: interrupted; stopping the loop" >&2; stop_all TERM; exit 130' INT TERM HUP

describe() { # describe STATUS: how a stage ended
  if [ "$1" -gt 128 ]; then echo "was killed by SIG$(kill -l "$(($1 - 128))" 2>/dev/null || echo "$(($1 - 128))")"; else echo "failed with exit $1"; fi
}

# failed STATUS: the stage's exit status is a failure (3: nothing left to do, is not).
failed() { [ "$1" -ne 0 ] && [ "$1" -ne 3 ]; }
# reap J: stage J has ended but was not waited for: wait for it, its status
# in $reaped. False when it still runs or was waited for already.
reap() {
  [ -z "${ended[$1]:-}" ] && ! running "${pids[$1]}" || return 1
  wait "${pids[$1]}" && reaped=0 || reaped=$?
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
  wait -n -p done_pid "${waiting[@]}"
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
rm -rf "$pipes"

"$BIN/seed" stats --db "$db"
