#!/usr/bin/env bash
# scripts/bench/frontier.sh [DATA_DIR]: the crawl frontier with 1,000,000 URLs.
#   seed add   1,000,000 url lines into an empty frontier (plain URLs over 2,000 hosts)
#   seed add   200,000 more, into the frontier of 1,000,000
#   seed next  lease all 1,200,000 (--per-host 0), written as url records
#   bytes on disk per URL (database file after seed add closed it)
#   seed add   300,000 url records (JSON, as seed urls writes them) into an empty frontier
# Prints "| stage | metric | value | target |" rows. URLs/s are wall-clock; the
# "per CPU-second" rows divide by the process's user+sys time, which is what a
# shared, loaded machine cannot spoil. N=... changes the count.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${N:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -o "$tmp/seed" ./cmd/seed

awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
  printf "https://www%d.example%d.cn/news/%d/article-%d.html?id=%d\n", i % 7, i % 2000, i % 97, i, i }' >"$tmp/urls.txt"
more=${MORE:-200000}
awk -v n="$n" -v m="$more" 'BEGIN { for (i = n; i < n + m; i++)
  printf "https://www%d.example%d.cn/news/%d/article-%d.html?id=%d\n", i % 7, i % 2000, i % 97, i, i }' >"$tmp/more.txt"

# run NAME CMD...: runs CMD, leaves wall and cpu seconds in $wall and $cpu.
run() {
  local out=$tmp/time.$1; shift
  /usr/bin/time -f "%e %U %S" -o "$out" "$@"
  read -r wall user sys <"$out"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
}
rate() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f", n / t; else print "inf" }'; }

db=$tmp/crawl.db
run add "$tmp/seed" add -q --db "$db" "$tmp/urls.txt"
echo "seed add: $n URLs in ${wall}s wall, ${cpu}s CPU" >&2
add_wall=$(rate "$n" "$wall") add_cpu=$(rate "$n" "$cpu")
bytes=$(stat -c %s "$db")
for f in "$db-wal"; do [ -f "$f" ] && bytes=$((bytes + $(stat -c %s "$f"))); done
per_url=$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.0f", b / n }')

run more "$tmp/seed" add -q --db "$db" "$tmp/more.txt"
more_wall=$(rate "$more" "$wall") more_cpu=$(rate "$more" "$cpu")

run next sh -c "'$tmp/seed' next -q --db '$db' -n $((n + more)) --per-host 0 >'$tmp/leased.jsonl'"
leased=$(wc -l <"$tmp/leased.jsonl")
echo "seed next: $leased URLs in ${wall}s wall, ${cpu}s CPU" >&2
next_wall=$(rate "$leased" "$wall") next_cpu=$(rate "$leased" "$cpu")

head -n 300000 "$tmp/urls.txt" | awk '{ printf "{\"url\":\"%s\",\"depth\":0,\"site\":\"example.cn\"}\n", $0 }' >"$tmp/records.jsonl"
jn=$(wc -l <"$tmp/records.jsonl")
run json "$tmp/seed" add -q --db "$tmp/json.db" "$tmp/records.jsonl"
json_wall=$(rate "$jn" "$wall") json_cpu=$(rate "$jn" "$cpu")

echo "| seed add | URLs/s, $n URLs into an empty frontier | $add_wall | ≥ 30,000 |"
echo "| seed add | URLs per CPU-second, same run | $add_cpu | |"
echo "| seed add | URLs/s, $more more into a frontier of $n | $more_wall ($more_cpu per CPU-s) | ≥ 30,000 |"
echo "| seed next | URLs/s, leasing all $leased queued | $next_wall | ≥ 20,000 |"
echo "| seed next | URLs per CPU-second, same run | $next_cpu | |"
echo "| seed add | URLs/s, $jn url records (JSON) into an empty frontier | $json_wall ($json_cpu per CPU-s) | ≥ 30,000 |"
echo "| frontier | bytes on disk per URL ($n queued) | $per_url | |"
