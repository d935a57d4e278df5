#!/usr/bin/env bash
# train.sh TOPIC [FETCH_FLAGS] — train a page model from the profile's examples
#
#   score train --example-urls | seed urls | fetch | segment     the examples' pages
#   crawl.sh from them for POOL pages                              unlabelled pages (optional)
#   score train --docs examples --docs pool -o MODEL               the model
#
# TOPIC        topic profile (YAML) with `examples: {positive: [...], negative: [...]}`
#              (URLs are fetched; texts and files are used as they are)
# FETCH_FLAGS  flags for fetch, one word-split string (e.g. "--proxy http://127.0.0.1:8080");
#              the FETCH_FLAGS variable works too
#
# Environment (all optional):
#   MODEL=BASE.model.json   where the model goes (BASE: TOPIC's file name without .yaml)
#   DIR=BASE.train          where the examples' docs (examples.jsonl) and the pool are kept
#   POOL=300                pages of a short focused crawl from the examples whose pages, unlabelled,
#                           teach the model further (self-training); 0 for none
#   TRAIN_FLAGS=            extra flags for score train (e.g. --lambda 0.5)
#   BIN=bin                 where the commands are (else those on PATH)
# Then crawl with it:  MODEL=BASE.model.json scripts/crawl.sh TOPIC SEEDS DB PAGES
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
topic=$1
[ -f "$topic" ] || { echo "train.sh: no topic profile $topic" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
if [ ! -x "$BIN/score" ] && command -v score >/dev/null; then BIN=$(dirname "$(command -v score)"); fi
for c in seed fetch segment score; do
  [ -x "$BIN/$c" ] || { echo "train.sh: $BIN/$c not found: run 'make build' or set BIN" >&2; exit 2; }
done
base=$(basename "$topic" .yaml)
MODEL=${MODEL:-$base.model.json} DIR=${DIR:-$base.train} POOL=${POOL:-300}
case $POOL in ''|*[!0-9]*) echo "train.sh: POOL must be a number, not '$POOL'" >&2; exit 2;; esac
read -r -a fetch_flags <<<"${2:-${FETCH_FLAGS:-}}"
read -r -a train_flags <<<"${TRAIN_FLAGS:-}"
mkdir -p "$DIR"

# 1. The examples' pages. A URL that cannot be fetched comes back as an error doc, which
#    score train leaves out (the label is then reported as in no --docs file).
"$BIN/score" train --topic "$topic" --example-urls >"$DIR/examples.txt"
n=$(grep -c . "$DIR/examples.txt" || true)
if [ "$n" -gt 0 ]; then
  echo "train.sh: fetching the profile's $n example URLs" >&2
  set +e
  "$BIN/seed" urls -q "$DIR/examples.txt" \
    | "$BIN/fetch" -q ${fetch_flags[@]+"${fetch_flags[@]}"} \
    | "$BIN/segment" -q --topic "$topic" >"$DIR/examples.jsonl"
  st=("${PIPESTATUS[@]}")
  set -e
  for i in 0 1 2; do
    case ${st[$i]} in 0|3) ;; *) echo "train.sh: fetching the examples failed (exit ${st[*]})" >&2; exit 1;; esac
  done
else
  : >"$DIR/examples.jsonl"
fi

# 2. Unlabelled pages: a short crawl from the examples, judged by the profile alone.
docs=(--docs "$DIR/examples.jsonl")
if [ "$POOL" -gt 0 ] && [ "$n" -gt 0 ]; then
  echo "train.sh: crawling $POOL pages from the examples for unlabelled pages" >&2
  rm -f "$DIR/pool.db" "$DIR/pool.db-wal" "$DIR/pool.db-shm" "$DIR/pool.jsonl.zst"
  BIN=$BIN ARCHIVE="$DIR/pool.jsonl.zst" PROGRESS=off FETCH_FLAGS="${fetch_flags[*]}" MODEL= \
    "$here/crawl.sh" "$topic" "$DIR/examples.txt" "$DIR/pool.db" "$POOL" >"$DIR/pool.log" 2>&1 \
    || { echo "train.sh: the pool crawl failed (see $DIR/pool.log); training without it" >&2; }
  [ -s "$DIR/pool.jsonl.zst" ] && docs+=(--docs "$DIR/pool.jsonl.zst")
fi

# 3. The model.
"$BIN/score" train --topic "$topic" "${docs[@]}" -o "$MODEL" ${train_flags[@]+"${train_flags[@]}"}
echo "train.sh: crawl with it: MODEL=$MODEL scripts/crawl.sh $topic SEEDS DB PAGES" >&2
