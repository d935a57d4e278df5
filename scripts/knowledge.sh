#!/usr/bin/env bash
# knowledge.sh TOPIC DIR [PAGES] — the nightly knowledge refresh of paper 4 (see README)
#
#   seed hosts (the profile's address library)
#   -> crawl.sh: an in-host focused crawl (seed add --hosts-from-topic; links score finds
#      relevant first, the others — pruned, in the frontier's reserve — only when those
#      run out, up to PAGES; ADD_FLAGS="--pruned drop" stops where the relevant ones end),
#      fetch, segment, score
#   -> dedupe --index DIR/kb.idx (against every earlier run) --store DIR/kb.sqlite
#
# TOPIC  topic profile (YAML) with a hosts: list
# DIR    the knowledge base directory (created if missing); it holds
#          kb.idx            dedupe's persistent index (every run's groups)
#          kb.sqlite         the knowledge base (search: bin/dedupe search --store DIR/kb.sqlite Q)
#          knowledge.log     the log of every run, appended
#          runs/STAMP/       one run: crawl.db (its frontier), scored.jsonl.zst (scored docs),
#                            new.jsonl (knowledge records new in this run), summary.txt
# PAGES  page budget of one run (default 2000)
#
# Safe under cron: a lock (flock on DIR/.lock) so two runs never overlap (a second run
# exits 75 at once), everything logged with times to DIR/knowledge.log, a non-zero exit
# when any stage fails (pipefail; the failing stage is named), and a summary of what was
# new. Each run crawls with a fresh frontier, so pages fetched last night are fetched
# again and changed or new pages show up; dedupe drops whatever an earlier run stored.
#
# Environment (all optional):
#   BIN=bin                  where the commands are (else those on PATH)
#   KEEP_RUNS=14             runs/ directories kept (older ones are deleted)
#   DEDUPE_FLAGS=            extra dedupe flags (e.g. --method euclid, -k 5)
#   FETCH_FLAGS= SEGMENT_FLAGS= SCORE_FLAGS= NEXT_FLAGS= ADD_FLAGS=
#                            passed to crawl.sh (e.g. FETCH_FLAGS="--proxy http://127.0.0.1:8080")
# Example crontab line:
#   15 2 * * * cd /srv/focuscrawl && scripts/knowledge.sh examples/topics/forestry.yaml /srv/kb 5000
set -euo pipefail

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
topic=$1 dir=$2 pages=${3:-2000}
case $pages in ''|*[!0-9]*) echo "knowledge.sh: PAGES must be a number, not '$pages'" >&2; exit 2;; esac
[ -f "$topic" ] || { echo "knowledge.sh: no topic profile $topic" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
# Installed with make install instead: the commands on PATH.
if [ ! -x "$BIN/seed" ] && command -v seed >/dev/null; then BIN=$(dirname "$(command -v seed)"); fi
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "knowledge.sh: no directory $BIN: run 'make build' or set BIN" >&2; exit 2; }
for c in seed fetch segment score dedupe; do
  [ -x "$BIN/$c" ] || { echo "knowledge.sh: $BIN/$c not found: run 'make build' or set BIN" >&2; exit 2; }
done
command -v flock >/dev/null || { echo "knowledge.sh: flock(1) is needed (util-linux)" >&2; exit 2; }
mkdir -p "$dir/runs"
dir=$(cd "$dir" && pwd)
topic=$(cd "$(dirname "$topic")" && pwd)/$(basename "$topic")

log=$dir/knowledge.log
if [ -z "${_KNOWLEDGE_RUN:-}" ]; then
  # The lock: held on fd 9 by this process until the run below ends.
  exec 9>>"$dir/.lock"
  if ! flock -n 9; then
    echo "knowledge.sh: another run holds $dir/.lock; not starting" >&2
    exit 75 # EX_TEMPFAIL: cron will try again next time
  fi
  # The run itself, its output timestamped into the log (and shown).
  set +e
  _KNOWLEDGE_RUN=1 bash "$0" "$@" 2>&1 | while IFS= read -r l; do printf '%s %s\n' "$(date -u +%FT%TZ)" "$l"; done | tee -a "$log"
  exit "${PIPESTATUS[0]}"
fi
exec 9>&- # the parent holds the lock
exec 3>&2 # the log, whatever a stage's output is redirected to when it fails

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run=$dir/runs/$stamp
mkdir -p "$run"
stage=start

# Old runs go, however this one ends; the index and the knowledge base keep
# what they found. A failed run's directory stays (it is the newest) for a
# look at what went wrong.
cleanup() {
  local d
  ls -1d "$dir"/runs/*/ 2>/dev/null | sort | awk -v keep="${KEEP_RUNS:-14}" '{ d[NR] = $0 } END { for (i = 1; i <= NR - keep; i++) print d[i] }' \
    | while IFS= read -r d; do rm -rf "$d"; done
}
on_exit() {
  local rc=$?
  trap - EXIT
  [ "$rc" -eq 0 ] || echo "knowledge.sh: run $stamp FAILED in stage $stage (exit $rc)" >&3
  cleanup || echo "knowledge.sh: removing old runs failed" >&3
  exit "$rc"
}
trap on_exit EXIT

echo "knowledge.sh: run $stamp: topic $topic, budget $pages pages, directory $dir"

stage="seed hosts"
"$BIN/seed" hosts --topic "$topic" -o "$run/hosts.jsonl"
nhosts=$(wc -l <"$run/hosts.jsonl")
[ "$nhosts" -gt 0 ] || { echo "knowledge.sh: the profile has no hosts: list"; exit 1; }
echo "knowledge.sh: $nhosts hosts in the address library"

stage="crawl"
ADD_FLAGS="--hosts-from-topic $topic ${ADD_FLAGS:-}" ARCHIVE="$run/scored.jsonl" SCOPE=host BIN="$BIN" \
  bash "$here/crawl.sh" "$topic" "$run/hosts.jsonl" "$run/crawl.db" "$pages"

stage="dedupe"
touch "$run/scored.jsonl"
read -r -a dedupe_flags <<<"${DEDUPE_FLAGS:-}"
"$BIN/dedupe" --topic "$topic" --index "$dir/kb.idx" --store "$dir/kb.sqlite" \
    ${dedupe_flags[@]+"${dedupe_flags[@]}"} --errors "$run/errors.jsonl" -o "$run/new.jsonl" "$run/scored.jsonl" 2>"$run/dedupe.log" \
  || { cat "$run/dedupe.log"; exit 1; }
cat "$run/dedupe.log"
# The scored docs are kept compressed.
if command -v zstd >/dev/null; then zstd -q --rm "$run/scored.jsonl"; else gzip "$run/scored.jsonl"; fi

stage="summary"
scored=$(grep -o '^dedupe: [0-9]* docs' "$run/dedupe.log" | grep -o '[0-9]*' || echo 0)
new=$(grep -c '"fingerprint"' "$run/new.jsonl" || true)
failed=$( [ -f "$run/errors.jsonl" ] && wc -l <"$run/errors.jsonl" || echo 0)
{
  echo "run $stamp"
  stats=$("$BIN/seed" stats --db "$run/crawl.db" --brief --json)
  [[ $stats =~ \"fetched\":([0-9]+) ]] # the first: the whole crawl's
  echo "pages crawled: ${BASH_REMATCH[1]}"
  echo "docs scored: $scored"
  grep '^dedupe: [0-9]* docs' "$run/dedupe.log" | sed 's/^dedupe: /dedupe: /'
  echo "new knowledge records: $new (error records, in errors.jsonl: $failed)"
  echo "new titles (first 20):"
  # awk reads to the end: no "| head" whose early exit kills the writer
  # with SIGPIPE (exit 141 under pipefail).
  sed -n '/"fingerprint"/s/^{"url":"\([^"]*\)".*"title":"\([^"]*\)".*/  \2  \1/p' "$run/new.jsonl" | awk 'NR <= 20'
} >"$run/summary.txt"
cat "$run/summary.txt"

stage="cleanup"
echo "knowledge.sh: run $stamp done: $new new records"
