#!/usr/bin/env bash
# discover-sites.sh TOPIC QUERIES [OUT] — find the websites of one kind (paper 0, see README)
#
#   seed search --queries QUERIES | verify --topic TOPIC > OUT
#
# TOPIC    topic profile (YAML) with rules, e.g. examples/topics/bookstores.yaml
# QUERIES  search queries, one per line (# comments); wide queries find more sites:
#          plain domain words (网上书店) and word combinations (作者 定价 购物车 书)
# OUT      verdict file, one per site (default: verdicts.jsonl); the search results
#          are kept beside it in OUT.urls.jsonl, so a second run can skip the search
#
# Prints the relevant sites at the end (site, good pages, pages fetched, best evidence).
#
# Environment (all optional):
#   BIN=bin               where the commands are (else those on PATH)
#   ENGINES=searxng       seed search engines: searxng, or engine description files
#                         (examples/engines/*.yaml), space-separated
#   ENDPOINT=             the SearXNG instance's URL (or FOCUSCRAWL_SEED_SEARCH_ENDPOINT)
#   PAGES=2               result pages per query and engine
#   URLS=                 skip the search: verify this file of URLs or url records
#   FETCH_FLAGS=          fetch's flags for verify's fetches, as crawl.sh takes them (word-split),
#                         e.g. FETCH_FLAGS="--proxy http://127.0.0.1:8080" for simweb
#   SEARCH_FLAGS= VERIFY_FLAGS=   extra flags for seed search and verify (word-split),
#                         e.g. VERIFY_FLAGS="--strategy bfs"
set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
topic=$1 queries=$2 out=${3:-verdicts.jsonl}
[ -f "$topic" ] || { echo "discover-sites.sh: no topic profile $topic" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
# Installed with make install instead: the commands on PATH.
if [ ! -x "$BIN/seed" ] && command -v seed >/dev/null; then BIN=$(dirname "$(command -v seed)"); fi
for c in seed verify; do
  [ -x "$BIN/$c" ] || { echo "discover-sites.sh: $BIN/$c not found: run 'make build' or set BIN" >&2; exit 2; }
done
read -r -a search_flags <<<"${SEARCH_FLAGS:-}"
read -r -a verify_flags <<<"${VERIFY_FLAGS:-}"
read -r -a fetch_flags <<<"${FETCH_FLAGS:-}"
urls=${URLS:-$out.urls.jsonl}

# 1. Meta-search: the union of every query's results on every engine, one record per
#    URL with meta.rank (its best rank), meta.queries and meta.engines.
if [ -z "${URLS:-}" ]; then
  [ -f "$queries" ] || { echo "discover-sites.sh: no query file $queries" >&2; exit 2; }
  engine_flags=()
  for e in ${ENGINES:-searxng}; do engine_flags+=(--engine "$e"); done
  [ -n "${ENDPOINT:-}" ] && engine_flags+=(--endpoint "$ENDPOINT")
  "$BIN/seed" search --queries "$queries" --pages "${PAGES:-2}" "${engine_flags[@]}" \
    ${search_flags[@]+"${search_flags[@]}"} -o "$urls"
fi
[ -s "$urls" ] || { echo "discover-sites.sh: no URLs to verify in $urls" >&2; exit 1; }

# 2. Verification: each site once, from its best-ranked URL, a few pages each.
"$BIN/verify" --topic "$topic" ${fetch_flags[@]+"${fetch_flags[@]}"} ${verify_flags[@]+"${verify_flags[@]}"} "$urls" >"$out"

# 3. The relevant sites, best first (bash alone: a verdict is one line whose
#    top-level fields come before its evidence list).
field() { # field NAME LINE: the first value of "NAME":… in LINE
  local re="\"$1\":(\"([^\"]*)\"|[^,}]*)"
  if [[ $2 =~ $re ]]; then printf '%s' "${BASH_REMATCH[2]:-${BASH_REMATCH[1]}}"; fi
}
checked=0 relevant=0 fetched=0 rows=()
while IFS= read -r v || [ -n "$v" ]; do
  [ -n "$v" ] || continue
  checked=$((checked + 1))
  n=$(field pages_fetched "$v")
  fetched=$((fetched + ${n:-0}))
  [ "$(field relevant "$v")" = true ] || continue
  relevant=$((relevant + 1))
  evidence=
  re='"evidence":\[\{"url":"([^"]*)"'
  [[ $v =~ $re ]] && evidence=${BASH_REMATCH[1]}
  rows+=("$(field best_score "$v")"$'\t'"  $(field site "$v")"$'\t'"$(field good_pages "$v") good / $n fetched"$'\t'"$evidence")
done <"$out"
echo "$relevant relevant sites of $checked checked ($fetched pages fetched):"
if [ "${#rows[@]}" -gt 0 ]; then printf '%s\n' "${rows[@]}" | sort -t $'\t' -k1,1gr | cut -f2-; fi
