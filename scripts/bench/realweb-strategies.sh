#!/usr/bin/env bash
# scripts/bench/realweb-strategies.sh: which link strategy should crawl.sh use by default? For
# every dev-web topic (scripts/realweb.sh), every strategy of STRATEGIES and each judge — the
# profile's keywords alone (none) and the page model scripts/bench/pagemodel.sh trained from the
# profile's 5 + 5 examples (model; out/bench/pagemodel/TOPIC/model.json, skipped when missing) —
# RUNS crawls of PAGES pages with crawl.sh, each against a fresh mirror, then simweb mirror eval.
# Prints one markdown row per topic, strategy and judge: harvest@500 and recall@1,000 (of the
# reachable relevant pages), mean and the runs, pages fetched, the bound @500; then per judge
# and strategy the means over the topics of harvest@500 / bound and of recall@1,000.
#
# Env: TOPICS (every topic), STRATEGIES ("shark shark+learned block-shark"), JUDGES ("none
#      model"), RUNS (3), PAGES (1000), ADD_FLAGS (crawl.sh's defaults), REALWEB_DIR.
# Outputs stay in out/bench/realweb-strategies/TOPIC/JUDGE/STRATEGY/RUN/.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-3} pages=${PAGES:-1000}
strategies=${STRATEGIES:-shark shark+learned block-shark}
judges=${JUDGES:-none model}
web=${REALWEB_DIR:-out/realweb}
work=out/bench/realweb-strategies
bin=$work/bin
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/seed ./cmd/fetch ./cmd/segment ./cmd/score ./cmd/simweb
rules=examples/topics/realweb/truth.yaml
[ -s "$web/truth.jsonl.zst" ] || BIN=$bin bash scripts/realweb.sh "$web" >&2
truth=$web/truth.jsonl.zst
topics=${TOPICS:-$(sed -n 's/^  \([a-z0-9-]*\):$/\1/p' "$rules")}
timing="--delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s"

. scripts/bench/lib.sh
trap simweb_stop EXIT

for t in $topics; do
  for j in $judges; do
    model=
    if [ "$j" = model ]; then
      model=out/bench/pagemodel/$t/model.json
      [ -f "$model" ] || { echo "| $t | $j | (no model: run scripts/bench/pagemodel.sh) | | | |"; continue; }
    fi
    for s in $strategies; do
      for r in $(seq "$runs"); do
        d=$work/$t/$j/$s/$r
        rm -rf "$d"
        mkdir -p "$d"
        simweb_start "$d" mirror serve -q --sources "$web/sources.txt"
        MODEL=$model LINKS=$s BIN=$bin FETCH_FLAGS="--proxy $proxy $timing" ADD_FLAGS="-q ${ADD_FLAGS:-}" \
          PROGRESS=off ARCHIVE=$d/crawl.jsonl.zst \
          bash scripts/crawl.sh "examples/topics/realweb/$t.yaml" "$web/seeds.txt" "$d/crawl.db" "$pages" >"$d/crawl.log" 2>&1 || true
        simweb_stop
        "$bin/simweb" mirror eval --truth "$truth" --topic "$t" --at 500,1000 "$d/crawl.jsonl.zst" >"$d/eval.json" 2>/dev/null || echo '{}' >"$d/eval.json"
      done
    done
  done
done

python3 - "$work" "$runs" $topics -- $judges -- $strategies <<'PY'
import json, os, sys
work, runs = sys.argv[1], int(sys.argv[2])
rest = sys.argv[3:]
i = rest.index('--'); topics = rest[:i]; rest = rest[i + 1:]
i = rest.index('--'); judges = rest[:i]; strategies = rest[i + 1:]
mean = lambda xs: sum(xs) / len(xs) if xs else float('nan')
summary = {}
for t in topics:
    for j in judges:
        for s in strategies:
            h, rc, pg, bound = [], [], [], None
            for r in range(1, runs + 1):
                p = f"{work}/{t}/{j}/{s}/{r}/eval.json"
                if not os.path.exists(p):
                    continue
                e = json.load(open(p))
                if 'pages' not in e:
                    h.append(0.0); rc.append(0.0); pg.append(0); continue
                h.append(e.get('harvest_at', {}).get('500', e.get('harvest', 0)))
                rc.append(e.get('recall_at', {}).get('1000', e.get('recall', 0)))
                pg.append(e['pages'])
                bound = e.get('upper_bound', {}).get('harvest_at', {}).get('500')
            if not h:
                continue
            print(f"| {t} | {j} | {s} | {mean(h):.3f} ({', '.join(f'{x:.3f}' for x in h)}) | {mean(rc):.3f} ({', '.join(f'{x:.3f}' for x in rc)}) | {', '.join(map(str, pg))} | {bound} |")
            if bound:
                summary.setdefault((j, s), []).append((mean(h) / bound, mean(rc)))
for (j, s), v in sorted(summary.items()):
    print(f"| mean of {len(v)} topics | {j} | {s} | harvest@500 / bound {mean([a for a, _ in v]):.3f} | recall@1000 {mean([b for _, b in v]):.3f} | | |")
PY
