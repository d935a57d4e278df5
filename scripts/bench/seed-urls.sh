#!/usr/bin/env bash
# scripts/bench/seed-urls.sh [DATA_DIR] [LINES]: throughput and peak memory of `seed urls` on
# LINES (default 10,000,000) synthetic URL lines, a fifth of them duplicates spelled another
# way (upper-case scheme and host, a fragment), under the default 256 MiB budget of the seen
# set and under 64 MiB (which spills more). Checks that the output has exactly the distinct
# URLs. Prints rows "| stage | metric | value | target |". DATA_DIR is not used.
set -euo pipefail
cd "$(dirname "$0")/../.."
lines=${2:-10000000}
bin=out/bench/seed-urls-bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/seed

# Line i (i % 5 == 4) repeats line i-3 in another spelling; 80% of the lines are distinct.
awk -v n="$lines" 'BEGIN {
  for (i = 0; i < n; i++) {
    if (i % 5 == 4) { j = i - 3
      printf "HTTPS://WWW.Site%d.Example.CN/news/%d/%d/article-%d.html?id=%d#comments\n", j % 20000, j % 97, j % 12, j, j
    } else
      printf "https://www.site%d.example.cn/news/%d/%d/article-%d.html?id=%d\n", i % 20000, i % 97, i % 12, i, i
  } }' >"$work/urls.txt"
distinct=$(( lines - lines / 5 ))
mb=$(( $(stat -c %s "$work/urls.txt") / 1048576 ))
label="$(awk -v n="$lines" 'BEGIN { if (n >= 1e6) printf "%gM", n / 1e6; else printf "%gk", n / 1e3 }') lines ($mb MB)"

run() { # run BUDGET: one timed run; prints "seconds maxrss_kb cpu_seconds spills"
  local budget=$1 out
  /usr/bin/time -f '%e %M %U %S' -o "$work/time" \
    "$bin/seed" urls --memory "$budget" --temp-dir "$work" "$work/urls.txt" 2>"$work/log" | wc -l >"$work/count"
  out=$(cat "$work/count")
  if [ "$out" -ne "$distinct" ]; then
    echo "seed-urls.sh: $out records, want $distinct" >&2; cat "$work/log" >&2; exit 1
  fi
  cat "$work/log" >&2
  local spills
  spills=$(sed -n 's/.*spilled \([0-9]*\) times.*/\1/p' "$work/log")
  read -r e m u s <"$work/time"
  echo "$e $m $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') ${spills:-0}"
}

for budget in 256MiB 64MiB; do
  read -r secs rss cpu spills < <(run "$budget")
  rate=$(awk -v n="$lines" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
  us=$(awk -v n="$lines" -v c="$cpu" 'BEGIN { printf "%.1f", c * 1e6 / n }')
  echo "| seed urls | lines/s, $label, --memory $budget ($spills spills) | $rate | ≥ 100000 |"
  echo "| seed urls | CPU per line (user+sys), --memory $budget | $us µs | ≤ 10 µs |"
  echo "| seed urls | peak RSS, $label, --memory $budget | $(( rss / 1024 )) MB | ≤ 1.25 × budget + 100 MB |"
done
