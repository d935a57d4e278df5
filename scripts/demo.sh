#!/usr/bin/env bash
# make demo: a small offline pipeline until simweb lands (issue 9): seed lists are
# normalised and de-duplicated into url records, a rejected line is reported with its
# position, and the records go through a one-line jq or Python stage the way any stage of
# yours would.
set -euo pipefail
cd "$(dirname "$0")/.."
out=demo-out
mkdir -p "$out"

echo "== seed urls: three example seed lists plus some messy lines" >&2
printf '%s\n' \
  'HTTP://Example.COM:80/a/../b#x' \
  'https://www.forestry.gov.cn/#top' \
  'https://WWW.FORESTRY.GOV.CN:443/' \
  '{"url":"http://bücher.example/katalog?b=2&a=1","meta":{"from":"demo"}}' \
  'mailto:someone@example.com' \
  >"$out/messy.txt"
status=0
bin/seed urls --rejects "$out/rejects.txt" examples/seeds/*.txt "$out/messy.txt" >"$out/urls.jsonl" || status=$?
if [ "$status" -ne 3 ]; then
  echo "demo: expected exit 3 (one rejected line), got $status" >&2
  exit 1
fi
echo "== exit status 3: one line rejected, kept in $out/rejects.txt: $(cat "$out/rejects.txt")" >&2
echo "== $(wc -l <"$out/urls.jsonl") url records in $out/urls.jsonl; the last four:" >&2
tail -4 "$out/urls.jsonl"

echo "== sites, counted by a stage of your own (see docs/records.md):" >&2
if command -v python3 >/dev/null; then
  python3 -c '
import collections, json, sys
c = collections.Counter(json.loads(l)["site"] for l in sys.stdin)
for site, n in c.most_common(5): print(f"{n:3d} {site}")' <"$out/urls.jsonl"
else
  sed 's/.*"site":"\([^"]*\)".*/\1/' "$out/urls.jsonl" | sort | uniq -c | sort -rn | head -5
fi
