#!/usr/bin/env bash
# scripts/bench/strategies.sh: every link strategy side by side, on simweb and on the real web,
# from the outputs scripts/bench/crawl.sh and scripts/bench/realweb.sh left in out/bench/
# (scripts/bench.sh runs them first; this script crawls nothing). One row per strategy:
# harvest at 500 / 1,000 / 2,000 pages and the link-priority AUC on simweb (forestry), then
# on each real-web topic harvest at 500 / 1,000 and the AUC; each with the harvest over all the
# crawl's fetches (a crawl can end a few fetches short of its budget) and the topic drift over
# them. "–": not run or not reached.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 - <<'PY'
import glob, json, os
crawl = "out/bench/crawl"
real = "out/bench/realweb"
def load(p):
    try:
        return json.load(open(p))
    except (OSError, ValueError):
        return None
strategies = []
for p in sorted(glob.glob(f"{crawl}/*/eval.json")) + sorted(glob.glob(f"{real}/*/*/eval.json")):
    s = os.path.basename(os.path.dirname(p))
    if s not in strategies:
        strategies.append(s)
topics = sorted(os.path.basename(d) for d in glob.glob(f"{real}/*") if os.path.isdir(d) and os.path.basename(d) != "bin")
def cell(e, ks):
    if e is None:
        return "–"
    h = e.get("harvest_at") or {}
    lp = e.get("link_priority") or {}
    auc = f"{lp['auc']:.2f}" if lp.get("auc") else "–"
    return ("/".join(f"{h[k]:.2f}" if k in h else "–" for k in ks)
            + f", {e['harvest']:.2f} over {e['pages']} (AUC {auc}, drift {e['drift']:.2f})")
for s in strategies:
    parts = [f"simweb {cell(load(f'{crawl}/{s}/eval.json'), ('500', '1000', '2000'))}"]
    for t in topics:
        parts.append(f"{t} {cell(load(f'{real}/{t}/{s}/eval.json'), ('500', '1000'))}")
    print(f"| strategies | {s}: harvest@500/1000[/2000] (link-priority AUC, drift), simweb · real web | {' · '.join(parts)} | — |")
PY
