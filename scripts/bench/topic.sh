#!/usr/bin/env bash
# Topic profiles: load time of the largest example profile and F(P,R)
# throughput of the bookstore rules, from the Go benchmarks of
# internal/topic. Prints markdown table rows: | stage | metric | value | target |
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(go test -run '^$' -bench 'BenchmarkLoadForestry|BenchmarkRuleScore' -benchtime 2s ./internal/topic/)
load_ns=$(awk '/^BenchmarkLoadForestry/ {print $3}' <<<"$out")
mbs=$(awk '/^BenchmarkRuleScore/ {for (i = 1; i <= NF; i++) if ($i == "MB/s") print $(i-1)}' <<<"$out")
if [[ -z "$load_ns" || -z "$mbs" ]]; then
	echo "bench/topic.sh: benchmark output not understood:" >&2
	echo "$out" >&2
	exit 1
fi
awk -v ns="$load_ns" 'BEGIN { printf "| topic | load forestry.yaml | %.2f ms | < 50 ms |\n", ns / 1e6 }'
printf '| topic | RuleScore, 8 bookstore rules, 20 KB Chinese text | %s MB/s | > 5 MB/s |\n' "$mbs"
