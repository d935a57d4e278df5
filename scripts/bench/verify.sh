#!/usr/bin/env bash
# scripts/bench/verify.sh: site verification on simweb. Serves the default simulated
# web (faults on: slow, rate-limited and flaky hosts, 5xx pages, robots.txt with
# Crawl-delay), gives verify what a meta-search for books would: for every site its home
# page, and for every site that has pages about books (bookstores' products, but also
# portals' book channels, forums' book threads, other sites' book articles: the hard
# negatives) one such page ranked first; then scores the verdicts against simweb's truth
# (a site is relevant when it is an online bookstore): site precision and recall,
# average pages fetched per site and wall time, for the heuristic and the bfs baseline
# side by side, with the default settings and with the paper's (no patience, and the
# plain AbstractURL classes). Prints markdown rows "| stage | metric | value | target |".
# Env: SEED (1), SITES (300), C (64 sites at once). Needs python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
seed=${SEED:-1}
sites=${SITES:-300}
conc=${C:-64}
bin=out/bench/verify-bin
work=$(mktemp -d)
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/simweb ./cmd/verify

. scripts/bench/lib.sh
trap 'simweb_stop; rm -rf "$work"' EXIT
simweb_start "$work" serve -q --seed "$seed" --sites "$sites" --addr 127.0.0.1:0

"$bin/simweb" sites --seed "$seed" --sites "$sites" >"$work/sites.jsonl"
"$bin/simweb" truth --seed "$seed" --sites "$sites" >"$work/truth.jsonl"
python3 - "$work/sites.jsonl" "$work/truth.jsonl" >"$work/input.jsonl" <<'PY'
import json, sys
deep = {}
for line in open(sys.argv[2]):
    p = json.loads(line)
    if p.get("topic") == "books" and p["kind"] in ("product", "article", "thread") and p["status"] == 200:
        deep.setdefault(p["site"], p["url"])
for line in open(sys.argv[1]):
    s = json.loads(line)
    if s["site"] in deep:
        print(json.dumps({"url": deep[s["site"]], "meta": {"rank": 1}}))
    print(json.dumps({"url": s["home"], "meta": {"rank": 2}}))
PY
deep=$(grep -c '"rank": 1' "$work/input.jsonl" || true)

# run NAME ARGS...: verify every site, then one row of figures.
run() {
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s%N)
  "$bin/verify" -q --topic examples/topics/bookstores.yaml --proxy "$proxy" --delay 0 \
    --max-crawl-delay 1s --backoff 200ms --retries 2 -c "$conc" "$@" "$work/input.jsonl" >"$work/$name.jsonl"
  t1=$(date +%s%N)
  python3 - "$work/sites.jsonl" "$work/$name.jsonl" "$name" "$(( (t1 - t0) / 1000000 ))" "$deep" <<'PY'
import json, sys
truth = {}
for line in open(sys.argv[1]):
    s = json.loads(line)
    truth[s["site"]] = s["relevance"].get("books", 0) > 0
tp = fp = fn = pages = n = failed = 0
cost = {True: [0, 0], False: [0, 0]}  # pages, sites: bookstores and the others
for line in open(sys.argv[2]):
    v = json.loads(line)
    n += 1
    pages += v["pages_fetched"]
    failed += 1 if v.get("error") else 0
    rel, want = v["relevant"], truth.get(v["site"], False)
    cost[want][0] += v["pages_fetched"]
    cost[want][1] += 1
    tp += rel and want
    fp += rel and not want
    fn += want and not rel
    if rel != want:  # the misses, for the log
        print(f"{sys.argv[3]}: {'false positive' if rel else 'missed'} {v['site']}: {v['reason']}", file=sys.stderr)
prec = f"{tp / (tp + fp):.3f}" if tp + fp else "— (none judged relevant)"
rec = f"{tp / (tp + fn):.3f}" if tp + fn else "—"
name, ms = sys.argv[3], int(sys.argv[4])
print(f"| verify | {name}: site precision / recall ({tp + fn} bookstores among {n} sites, {sys.argv[5]} with a page about books first, {failed} unreachable) | {prec} / {rec} | ≥ 0.95 precision |")
per = lambda k: cost[k][0] / cost[k][1] if cost[k][1] else float("nan")
print(f"| verify | {name}: pages fetched per site (total, wall time) | {pages / n:.2f} ({pages}, {ms / 1000:.1f} s) | ≤ 15 |")
print(f"| verify | {name}: pages per bookstore / per other site | {per(True):.2f} / {per(False):.2f} | |")
PY
}

run "heuristic" --strategy heuristic
run "bfs" --strategy bfs
run "heuristic, no patience" --strategy heuristic --patience 0
run "bfs, no patience" --strategy bfs --patience 0
run "heuristic, paper (no patience, AbstractURL classes)" --strategy heuristic --patience 0 --classes abstract

# CPU per page: segmenting a bookstore product page and applying the rules (one core).
go test -run '^$' -bench Judge -benchtime 500x -cpu 1 -count 1 ./internal/siteverify >"$work/judge.txt"
awk '/^BenchmarkJudge/ { for (i = 1; i <= NF; i++) if ($(i+1) == "pages/s") p = $i
       printf "| verify | pages judged per second, one core (segment + rules, a bookstore product page) | %.0f | |\n", p }' "$work/judge.txt"
