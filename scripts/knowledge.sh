#!/usr/bin/env bash
# knowledge.sh TOPIC DIR [PAGES] — the nightly knowledge refresh of seed 004
#
#   seed hosts (the profile's address library)
#   -> crawl.sh: an in-host focused crawl (seed add --hosts-from-topic, links queued only
#      when score finds their anchor relevant), fetch, segment, score
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
#   BIN=bin                  where the commands are
#   KEEP_RUNS=14             runs/ directories kept (older ones are deleted)
#   DEDUPE_FLAGS=            extra dedupe flags (e.g. --method euclid, -k 5)
#   FETCH_FLAGS= SEGMENT_FLAGS= SCORE_FLAGS= NEXT_FLAGS= ADD_FLAGS=
#                            passed to crawl.sh (e.g. FETCH_FLAGS="--proxy http://127.0.0.1:8080")
# Example crontab line:
#   15 2 * * * cd /srv/focuscrawl && scripts/knowledge.sh examples/topics/forestry.yaml /srv/kb 5000
set -euo pipefail

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
topic=$1 dir=$2 pages=${3:-2000}
case $pages in ''|*[!0-9]*) echo "knowledge.sh: PAGES must be a number, not '$pages'" >&2; exit 2;; esac
[ -f "$topic" ] || { echo "knowledge.sh: no topic profile $topic" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
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

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run=$dir/runs/$stamp
mkdir -p "$run"
stage=start
trap 'rc=$?; [ $rc -eq 0 ] || echo "knowledge.sh: run $stamp FAILED in stage $stage (exit $rc)"' EXIT

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
    ${dedupe_flags[@]+"${dedupe_flags[@]}"} -o "$run/new.jsonl" "$run/scored.jsonl" 2>"$run/dedupe.log" \
  || { cat "$run/dedupe.log"; exit 1; }
cat "$run/dedupe.log"
# The scored docs are kept compressed.
if command -v zstd >/dev/null; then zstd -q --rm "$run/scored.jsonl"; else gzip "$run/scored.jsonl"; fi

stage="summary"
scored=$(grep -o '^dedupe: [0-9]* docs' "$run/dedupe.log" | grep -o '[0-9]*' || echo 0)
new=$(grep -c '"fingerprint"' "$run/new.jsonl" || true)
failed=$(grep -c '"error"' "$run/new.jsonl" || true)
{
  echo "run $stamp"
  echo "pages crawled: $("$BIN/seed" stats --db "$run/crawl.db" --json | grep -o '"fetched":[0-9]*' | head -n 1 | cut -d: -f2)"
  echo "docs scored: $scored"
  grep '^dedupe: [0-9]* docs' "$run/dedupe.log" | sed 's/^dedupe: /dedupe: /'
  echo "new knowledge records: $new (errors passed on: $failed)"
  echo "new titles (first 20):"
  grep '"fingerprint"' "$run/new.jsonl" | head -n 20 | sed -n 's/^{"url":"\([^"]*\)".*"title":"\([^"]*\)".*/  \2  \1/p'
} >"$run/summary.txt"
cat "$run/summary.txt"

# Old runs go; the index and the knowledge base keep what they found.
stage="cleanup"
ls -1d "$dir"/runs/*/ 2>/dev/null | sort | head -n "-${KEEP_RUNS:-14}" | xargs -r rm -rf
echo "knowledge.sh: run $stamp done: $new new records"
