#!/usr/bin/env bash
# scripts/bench/realweb-runs.sh: repeated crawls of the dev web (scripts/realweb.sh) with one link
# strategy, for means over runs: RUNS runs of scripts/bench/realweb.sh per topic and per seed add
# flag set, interleaved (run 1 of every topic and flag set, then run 2, …) so a change of the
# machine's load falls on all of them alike. Each crawl's eval JSON, seed stats and wall time are
# kept in OUT/FLAGSET/TOPIC/RUN/; then one markdown row per topic and flag set: the mean and the
# RUNS values of harvest@500, recall of the reachable relevant pages @PAGES, pages fetched, score's
# verdict precision and recall, the believed harvest, and the upper bound @500.
#
# Env: TOPICS (every topic of examples/topics/realweb/truth.yaml), RUNS (3), PAGES (1000),
#      LINKS (shark), FLAGSETS (two sets, "|"-separated: "-q|-q --keep-pruned": crawl.sh's
#      default, no extra flag, and --keep-pruned), OUT (out/bench/realweb-runs), REALWEB_DIR,
#      SUMMARY=1 (no crawl: tabulate what OUT holds).
#   TOPICS="java-swing octave-plotting" RUNS=3 bash scripts/bench/realweb-runs.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
rules=examples/topics/realweb/truth.yaml
topics=${TOPICS:-$(sed -n 's/^  \([a-z0-9-]*\):$/\1/p' "$rules")}
runs=${RUNS:-3}
pages=${PAGES:-1000}
links=${LINKS:-shark}
out=${OUT:-out/bench/realweb-runs}
IFS='|' read -r -a flagsets <<<"${FLAGSETS:--q|-q --keep-pruned}"
name() { local n=${1//-q/}; n=$(echo $n); n=${n//--/}; n=${n// /+}; echo "${n:-defaults}"; }

[ "${SUMMARY:-}" = 1 ] && runs_to_crawl=0 || runs_to_crawl=$runs
for run in $(seq "$runs_to_crawl"); do
  for t in $topics; do
    for fs in "${flagsets[@]}"; do
      dir=$out/$(name "$fs")/$t/$run
      mkdir -p "$dir"
      echo "realweb-runs: run $run, $t, ADD_FLAGS=\"$fs\"" >&2
      TOPICS=$t STRATEGIES=$links PAGES=$pages ADD_FLAGS="$fs" bash scripts/bench/realweb.sh >"$dir/rows.md" 2>"$dir/bench.log" || true
      src=out/bench/realweb/$t/$links
      for f in eval.json stats.txt ms crawl.log; do cp "$src/$f" "$dir/" 2>/dev/null || true; done
    done
  done
done

python3 - "$out" "$pages" "$runs" $topics -- "${flagsets[@]}" <<'PY'
import json, os, sys
out, pages, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
i = sys.argv.index("--")
topics, flagsets = sys.argv[4:i], sys.argv[i + 1:]
def name(fs):
    n = "+".join(w.lstrip("-") for w in fs.split() if w != "-q")
    return n or "defaults"
def cell(vals, fmt="{:.3f}"):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "–"
    mean = sum(vals) / len(vals)
    return fmt.format(mean) + " (" + ", ".join(fmt.format(v) for v in vals) + ")"
print(f"| topic | seed add | harvest@500 | recall@{pages} | pages fetched | verdict precision | verdict recall | believed harvest | upper bound @500 |")
print("|---|---|---|---|---|---|---|---|---|")
for t in topics:
    for fs in flagsets:
        es = []
        for run in range(1, runs + 1):
            p = f"{out}/{name(fs)}/{t}/{run}/eval.json"
            es.append(json.load(open(p)) if os.path.exists(p) else None)
        ok = [e for e in es if e]
        g = lambda f: [f(e) for e in ok]
        v = lambda k: g(lambda e: (e.get("verdicts") or {}).get(k))
        # Precision of no positive verdict, recall of no relevant page
        # judged: undefined, "–" (the JSON says 0).
        def vr(k, den):
            return g(lambda e: (e.get("verdicts") or {}).get(k) if sum((e.get("verdicts") or {}).get(d, 0) for d in den) else None)
        up = ok[0]["upper_bound"]["harvest_at"].get("500") if ok else None
        # A crawl that ended before 500 slots: its unspent budget harvested
        # nothing (relevant / 500), marked with a dagger.
        h500 = g(lambda e: e.get("harvest_at", {}).get("500", e["relevant"] / 500))
        short = any(e["pages"] < 500 for e in ok)
        print(f"| {t} | {name(fs)} | {cell(h500)}{' †' if short else ''} | "
              f"{cell(g(lambda e: e.get('recall_at', {}).get(pages, e.get('recall'))))} | "
              f"{cell(g(lambda e: e['pages']), '{:.0f}')} | {cell(vr('precision', ('true_pos', 'false_pos')))} | "
              f"{cell(vr('recall', ('true_pos', 'false_neg')))} | "
              f"{cell(v('believed_harvest'))} | {up if up is None else f'{up:.3f}'} |")
PY
