#!/usr/bin/env bash
# scripts/bench.sh [DATA_DIR]: run every benchmark script under scripts/bench/ and write one
# markdown table to docs/benchmarks.md (and stdout), with the machine and the date.
# Each scripts/bench/*.sh prints rows "| stage | metric | value | target |"; anything else it
# prints goes to the log (out/bench/*.log). scripts/bench/lib.sh is not one: the scripts that
# crawl simweb or the dev web's mirror source it to start the server. DATA_DIR defaults to
# ../shared/data.
set -uo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
mkdir -p out/bench
make -s build >/dev/null || { echo "bench: build failed" >&2; exit 1; }

rows=$(mktemp)
failed=0
for s in scripts/bench/*.sh; do
  [ -e "$s" ] || continue
  name=$(basename "$s" .sh)
  [ "$name" = lib ] && continue
  echo "bench: $name ..." >&2
  start=$(date +%s)
  if bash "$s" "$data" >"out/bench/$name.out" 2>"out/bench/$name.log"; then
    grep '^|' "out/bench/$name.out" >>"$rows"
  else
    failed=1
    echo "| $name | (script failed: see out/bench/$name.log) | | |" >>"$rows"
  fi
  echo "bench: $name done in $(( $(date +%s) - start ))s" >&2
done

{
  echo "# Benchmarks"
  echo
  echo "Written by \`scripts/bench.sh\` on $(date -u +%Y-%m-%d) — $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB," \
       "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(go version | cut -d' ' -f3)."
  echo "Figures vary from run to run on a shared machine; each row is one run."
  echo
  echo "| stage | metric | value | target |"
  echo "|---|---|---|---|"
  cat "$rows"
  if [ -f docs/benchmarks-notes.md ]; then echo; cat docs/benchmarks-notes.md; fi
} >docs/benchmarks.md
rm -f "$rows"
cat docs/benchmarks.md
exit $failed
