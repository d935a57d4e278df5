#!/usr/bin/env bash
# scripts/bench/pagemodel.sh: page models on the real dev web (scripts/realweb.sh). For every
# topic of examples/topics/realweb/truth.yaml:
#
#   1. scripts/train.sh: the profile's 5 + 5 example URLs fetched, a POOL-page crawl from them
#      for self-training, score train → a model;
#   2. RUNS crawls of PAGES pages with crawl.sh (LINKS, the default strategy unless set) without
#      and with MODEL=: harvest @500, recall of the reachable relevant pages @1,000, pages
#      fetched, and score's verdicts on the crawled pages against the truth (precision, recall,
#      AUC of the score; scripts/bench/pagemodel_eval.py);
#   3. a learning curve on the first model crawl's pages: 20, 40 and 80 labels added as a user
#      adds them in seed report (the pages nearest the threshold first, labelled by the truth:
#      scripts/bench/pagemodel_labels.py), score train --labels --docs the crawl, the crawl's
#      other pages (the labelled ones left out) judged again.
#
# Prints markdown rows "| topic | what | value |". Everything stays in out/bench/pagemodel/TOPIC/.
# Env: TOPICS (every topic), RUNS (3), PAGES (1000), POOL (300), LINKS (crawl.sh's default),
#      REALWEB_DIR (out/realweb), ADD_FLAGS (none: crawl.sh's defaults).
# A reduced run: TOPICS=apache-rewrite RUNS=1 bash scripts/bench/pagemodel.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-3} pages=${PAGES:-1000} pool=${POOL:-300}
web=${REALWEB_DIR:-out/realweb}
work=out/bench/pagemodel
bin=$work/bin
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/seed ./cmd/fetch ./cmd/segment ./cmd/score ./cmd/simweb
rules=examples/topics/realweb/truth.yaml
if [ ! -s "$web/truth.jsonl.zst" ] || [ "$rules" -nt "$web/truth.jsonl.zst" ]; then
  BIN=$bin bash scripts/realweb.sh "$web" >&2
fi
truth=$web/truth.jsonl.zst
topics=${TOPICS:-$(sed -n 's/^  \([a-z0-9-]*\):$/\1/p' "$rules")}
timing="--delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s"

. scripts/bench/lib.sh
trap simweb_stop EXIT
serve() { simweb_start "$1" mirror serve -q --sources "$web/sources.txt"; } # serve DIR: a fresh mirror; sets proxy
verdicts() { python3 scripts/bench/pagemodel_eval.py "$truth" "$1" "$2"; }
field() { python3 -c "import json,sys; v=json.load(sys.stdin).get('$1'); print('–' if v is None else v)"; }

for t in $topics; do
  profile=examples/topics/realweb/$t.yaml
  dir=$work/$t
  rm -rf "$dir"
  mkdir -p "$dir"
  serve "$dir"
  # 1. The model from the profile's examples.
  start=$(date +%s.%N)
  MODEL=$dir/model.json DIR=$dir/train POOL=$pool BIN=$bin \
    bash scripts/train.sh "$profile" "--proxy $proxy $timing" >"$dir/train.log" 2>&1 || {
    echo "| $t | score train failed: see $dir/train.log | |"; simweb_stop; continue; }
  echo "| $t | train.sh (fetch 10 examples, a $pool-page pool crawl, train) seconds | $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}') |"
  simweb_stop
  # 2. Crawls without and with the model.
  for m in none model; do
    for r in $(seq "$runs"); do
      d=$dir/$m/$r
      mkdir -p "$d"
      serve "$d"
      model=
      [ $m = model ] && model=$dir/model.json
      MODEL=$model BIN=$bin FETCH_FLAGS="--proxy $proxy $timing" ADD_FLAGS="-q ${ADD_FLAGS:-}" \
        PROGRESS=off ARCHIVE=$d/crawl.jsonl.zst ${LINKS:+LINKS=$LINKS} \
        bash scripts/crawl.sh "$profile" "$web/seeds.txt" "$d/crawl.db" "$pages" >"$d/crawl.log" 2>&1 || true
      simweb_stop
      "$bin/simweb" mirror eval --truth "$truth" --topic "$t" --at 500,1000 "$d/crawl.jsonl.zst" >"$d/eval.json" 2>/dev/null || true
      verdicts "$t" "$d/crawl.jsonl.zst" >"$d/verdicts.json"
      python3 - "$d" "$t" "$m" "$r" <<'PY'
import json, sys
d, t, m, r = sys.argv[1:]
e = json.load(open(d + '/eval.json')); v = json.load(open(d + '/verdicts.json'))
h = e.get('harvest_at', {}).get('500'); rc = e.get('recall_at', {}).get('1000', e.get('recall'))
b = e.get('upper_bound', {}).get('harvest_at', {}).get('500')
print(f"| {t} | {m} run {r}: pages, harvest@500 (bound), recall@1000 | {e['pages']}, {h} ({b}), {round(rc, 3)} |")
print(f"| {t} | {m} run {r}: verdict precision / recall, AUC | {v['precision']} / {v['recall']}, {v['auc']} |")
PY
    done
  done
  # 3. The learning curve on the first model crawl's pages.
  d=$dir/model/1
  cur=$dir/model.json
  : >"$dir/labels.jsonl"
  zstd -dcq "$d/crawl.jsonl.zst" | "$bin/score" -q --topic "$profile" --model "$cur" --links bfs >"$dir/judged.jsonl"
  echo "| $t | 5+5 examples: verdict precision / recall, AUC on the crawl's pages | $(verdicts "$t" "$dir/judged.jsonl" | python3 -c "import json,sys; v=json.load(sys.stdin); print(v['precision'], '/', v['recall'], ',', v['auc'])") |"
  have=0
  for n in 20 40 80; do
    python3 scripts/bench/pagemodel_labels.py "$truth" "$t" "$dir/judged.jsonl" "$dir/labels.jsonl" $((n - have)) >>"$dir/labels.jsonl"
    have=$n
    "$bin/score" train -q --topic "$profile" --docs "$dir/train/examples.jsonl" --labels "$dir/labels.jsonl" \
      --docs "$d/crawl.jsonl.zst" -o "$dir/model-$n.json" 2>>"$dir/train.log" || true
    zstd -dcq "$d/crawl.jsonl.zst" | "$bin/score" -q --topic "$profile" --model "$dir/model-$n.json" --links bfs >"$dir/judged.jsonl"
    # Judged apart from the pages it learned from.
    echo "| $t | +$n labels: verdict precision / recall, AUC on the crawl's other pages | $(python3 scripts/bench/pagemodel_eval.py --exclude "$dir/labels.jsonl" "$truth" "$t" "$dir/judged.jsonl" | python3 -c "import json,sys; v=json.load(sys.stdin); print(v['precision'], '/', v['recall'], ',', v['auc'])") |"
  done
done
