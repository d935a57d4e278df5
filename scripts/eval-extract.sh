#!/usr/bin/env bash
# Extraction quality of segment against human gold: per set (aeb, readability,
# cwce-dev, cleaneval-dev, cleanportal, pagesignal) content P/R/F1 over bags of tokens, title exact-match rate, author
# and published-date accuracy. Usage: scripts/eval-extract.sh [DATA_DIR]
# (default ../shared/data). Extra arguments go to "segment eval", e.g.
# --dump /tmp/pages.jsonl for every page's extraction and scores,
# --titles scripts/eval-data/titles-sample.jsonl for the hand-checked titles,
# --authors scripts/eval-data/authors-checked.jsonl for the hand-checked authors,
# --sets pagesignal, --explain ID, --tune extend-prose=0.8 (or fallback-thin=500,
# no-fallback=1, no-kin=1, noise-candidates=1), --diagnose for the missed gold text and kept noise by class.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${1:-../shared/data}"
shift || true
make -s build >/dev/null
exec bin/segment eval "$@" "$data"
