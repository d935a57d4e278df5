#!/usr/bin/env bash
# crawl.sh TOPIC SEEDS DB [PAGES] — a focused crawl, the closed loop
#
#   seed next --follow | fetch | segment | score | tee >(ARCHIVE) | seed add
#
# TOPIC  topic profile (YAML)
# SEEDS  seed list: URLs one per line, or url records (seed search, seed hosts…);
#        "-" reads stdin; "" adds no seeds (resume from DB only)
# DB     the frontier: a SQLite file, created if missing, or a Redis URL
#        redis://HOST:PORT/DB?prefix=NAME shared by any number of machines,
#        each running this same script; run again to resume
# PAGES  page budget over the whole crawl, resumed runs included (default 1000)
#
# Resumable: kill any stage (even with SIGKILL) and run the script again. Pages
# recorded done are never fetched again; URLs leased by the killed run come back
# when their lease (LEASE, default 2m) runs out — or at once with RELEASE=1, when
# you know the old loop has ended.
#
# Environment (all optional):
#   BIN=bin                  where the commands are
#   ARCHIVE=DB.jsonl.zst     every scored doc, appended (zstd, or gzip as .gz when
#                            the zstd command is missing); with a Redis DB each
#                            machine keeps its own, crawl-HOSTNAME.jsonl.zst;
#                            ARCHIVE=none for none
#   LINKS=shark              score's link strategy (shark measured best on simweb:
#                            docs/benchmarks.md; block-shark, heuristic, … also work)
#   SCOPE=any                seed add --scope (host, domain, any)
#   IN_FLIGHT=64             URLs leased and not yet back: the pipe's backlog
#   LEASE=2m   RELEASE=      lease length (a live loop renews its leases, so only a
#                            dead loop's run out); RELEASE=1 requeues every lease first
#   FETCH_FLAGS= SEGMENT_FLAGS= SCORE_FLAGS= ADD_FLAGS= NEXT_FLAGS=
#                            extra flags for each stage (word-split)
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 3 ] && [ $# -le 4 ] || usage
topic=$1 seeds=$2 db=$3 pages=${4:-1000}
case $pages in ''|*[!0-9]*) echo "crawl.sh: PAGES must be a number, not '$pages'" >&2; exit 2;; esac
[ -f "$topic" ] || { echo "crawl.sh: no topic profile $topic" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
for c in seed fetch segment score; do
  [ -x "$BIN/$c" ] || { echo "crawl.sh: $BIN/$c not found: run 'make build' or set BIN" >&2; exit 2; }
done

LINKS=${LINKS:-shark} SCOPE=${SCOPE:-any} IN_FLIGHT=${IN_FLIGHT:-64} LEASE=${LEASE:-2m}
read -r -a fetch_flags <<<"${FETCH_FLAGS:-}"
read -r -a segment_flags <<<"${SEGMENT_FLAGS:-}"
read -r -a score_flags <<<"${SCORE_FLAGS:-}"
read -r -a add_flags <<<"${ADD_FLAGS:-}"
read -r -a next_flags <<<"${NEXT_FLAGS:-}"

# 1. Seeds. Known URLs are left as they are, so adding them again on a resumed
#    run changes nothing.
if [ -n "$seeds" ]; then
  "$BIN/seed" urls "$seeds" | "$BIN/seed" add --db "$db" --scope "$SCOPE" ${add_flags[@]+"${add_flags[@]}"}
fi

# 2. The budget left: PAGES minus the pages already fetched.
fetched=$("$BIN/seed" stats --db "$db" --json | grep -o '"fetched":[0-9]*' | head -n 1 | cut -d: -f2)
left=$((pages - ${fetched:-0}))
if [ "$left" -le 0 ]; then
  echo "crawl.sh: $fetched pages fetched already, budget $pages reached" >&2
  "$BIN/seed" stats --db "$db"
  exit 0
fi
echo "crawl.sh: $fetched pages fetched so far; crawling up to $left more" >&2

# 3. The archive of scored docs.
case $db in
  redis://*|rediss://*|unix://*) ARCHIVE=${ARCHIVE:-crawl-$(hostname).jsonl.zst} ;;
  *) ARCHIVE=${ARCHIVE:-${db%.db}.jsonl.zst} ;;
esac
archive() {
  case $ARCHIVE in
    none) cat >/dev/null ;;
    *.zst) if command -v zstd >/dev/null; then zstd -q -c >>"$ARCHIVE"; else gzip -c >>"${ARCHIVE%.zst}.gz"; fi ;;
    *.gz) gzip -c >>"$ARCHIVE" ;;
    *) cat >>"$ARCHIVE" ;;
  esac
}

release=()
[ -n "${RELEASE:-}" ] && release=(--release)

# 4. The loop. --budget holds PAGES over every worker of a shared frontier.
"$BIN/seed" next --db "$db" --follow --max-pages "$left" --budget "$pages" --in-flight "$IN_FLIGHT" --lease "$LEASE" \
    ${release[@]+"${release[@]}"} ${next_flags[@]+"${next_flags[@]}"} \
  | "$BIN/fetch" ${fetch_flags[@]+"${fetch_flags[@]}"} \
  | "$BIN/segment" --topic "$topic" ${segment_flags[@]+"${segment_flags[@]}"} \
  | "$BIN/score" --topic "$topic" --links "$LINKS" --db "$db" ${score_flags[@]+"${score_flags[@]}"} \
  | tee >(archive) \
  | "$BIN/seed" add --db "$db" --scope "$SCOPE" ${add_flags[@]+"${add_flags[@]}"}
wait

"$BIN/seed" stats --db "$db"
