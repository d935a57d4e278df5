#!/usr/bin/env bash
# scripts/bench/stores.sh: one crawl.sh pipe on each frontier store, to compare their
# harvests: simweb's default web (seed 1, forestry), PAGES pages, LINKS, RUNS runs a store,
# each on a fresh simweb and a fresh frontier; `simweb eval` measures each archive. It prints
# one markdown row per store: harvest (mean and each run) and pages. Each store's runs are
# scripts/bench/workers.sh's with one worker (CONFIGS=1:), in out/bench/stores/STORE/.
#
# Env: STORES ("sqlite redis"; "postgres" too with a server), PAGES (800), RUNS (3),
#      LINKS (shark+learned), IN_FLIGHT (64), REDIS (redis://127.0.0.1:6379/0),
#      POSTGRES (postgres://postgres@127.0.0.1:5432/test).
set -euo pipefail
cd "$(dirname "$0")/../.."
links=${LINKS:-shark+learned}
for store in ${STORES:-sqlite redis}; do
  case $store in
    sqlite) db=sqlite ;;
    redis) db=${REDIS:-redis://127.0.0.1:6379/0} ;;
    postgres) db=${POSTGRES:-postgres://postgres@127.0.0.1:5432/test} ;;
    *) echo "stores bench: unknown store $store" >&2; exit 2 ;;
  esac
  echo "stores bench: $store" >&2
  # workers.sh's row names the workers and NEXT_FLAGS; this one the store and LINKS.
  row=$(CONFIGS=1: DB=$db LINKS=$links PAGES=${PAGES:-800} RUNS=${RUNS:-3} IN_FLIGHT=${IN_FLIGHT:-64} \
    WORK=out/bench/stores/$store bash scripts/bench/workers.sh)
  [[ $row == "| 1 | \`(none)\` | "* ]] || { echo "stores bench: workers.sh printed $row" >&2; exit 1; }
  echo "| $store | \`$links\` | ${row#"| 1 | \`(none)\` | "}"
done
