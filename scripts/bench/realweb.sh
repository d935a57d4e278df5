#!/usr/bin/env bash
# scripts/bench/realweb.sh: focused crawls of a real web. The web is eight Debian documentation
# packages served offline by `simweb mirror serve` from a portal page (scripts/realweb.sh; see
# docs/realweb.md). For every topic of examples/topics/realweb/truth.yaml and every link
# strategy: scripts/crawl.sh from the portal, PAGES pages through fetch --proxy, then
# `simweb mirror eval` against the truth. Prints markdown rows "| stage | metric | value |
# target |": harvest at 500 / 1,000 / 2,000 pages, the link-priority AUC, recall of the relevant pages reachable
# from the portal by 1,000 pages, the share of fetch slots spent on URLs that can never be
# fetched (hosts the mirror does not have, robots.txt), the requests the mirror saw for hosts
# it does not have (retries and robots.txt included), and per topic the upper bound: the
# harvest of a crawler that knows the truth, through the same links.
#
# Each crawl runs against a fresh mirror. Politeness is lowered as in the demo (no delay
# between requests to one host, Crawl-delay capped at 50 ms, short back-off); robots.txt is
# fetched and obeyed. seed add keeps the links score marks pruned in the frontier's reserve,
# crawl.sh's default: leased when nothing above the threshold is left, so a crawl goes on past
# the portal, whose anchors name packages, not topics (when they were dropped every crawl
# ended there; the bench then ran --keep-pruned). Everything a crawl wrote stays in
# out/bench/realweb/TOPIC/STRATEGY/ (frontier, scored docs, eval JSON, the mirror's request log).
#
# Env: TOPICS (every topic of the truth), STRATEGIES ("bfs best-first shark block-shark
#      heuristic ipagerank skyreach linkmodel shark+learned"), PAGES (2000), REALWEB_DIR
#      (out/realweb; built by scripts/realweb.sh when missing), ADD_FLAGS ("-q"; "-q --pruned queue"
#      for the setting of the tables measured before the reserve).
# A reduced run: TOPICS=gimp-filters STRATEGIES="shark best-first" PAGES=1000 bash scripts/bench/realweb.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
strategies=${STRATEGIES:-bfs best-first shark block-shark heuristic ipagerank skyreach linkmodel shark+learned}
pages=${PAGES:-2000}
web=${REALWEB_DIR:-out/realweb}
add_flags=${ADD_FLAGS:--q}
work=out/bench/realweb
bin=$work/bin
mkdir -p "$bin"
go build -trimpath -o "$bin/" ./cmd/seed ./cmd/fetch ./cmd/segment ./cmd/score ./cmd/simweb

rules=examples/topics/realweb/truth.yaml
if [ ! -s "$web/truth.jsonl.zst" ] || [ "$rules" -nt "$web/truth.jsonl.zst" ]; then
  if ! BIN=$bin bash scripts/realweb.sh "$web" >&2; then
    echo "| realweb | (no real web: scripts/realweb.sh failed, see out/bench/realweb.log) | | |"
    exit 1
  fi
fi
topics=${TOPICS:-$(sed -n 's/^  \([a-z0-9-]*\):$/\1/p' "$rules")}
checkpoints=
for n in 500 1000 2000; do [ "$n" -lt "$pages" ] && checkpoints=$checkpoints$n,; done
checkpoints=$checkpoints$pages

. scripts/bench/lib.sh
trap simweb_stop EXIT

for t in $topics; do
  profile=examples/topics/realweb/$t.yaml
  [ -f "$profile" ] || { echo "| realweb | $t: no profile $profile | | |"; continue; }
  for s in $strategies; do
    dir=$work/$t/$s
    rm -rf "$dir"
    mkdir -p "$dir"
    simweb_start "$dir" mirror serve -q --sources "$web/sources.txt" --log "$dir/requests.jsonl"
    t0=$(date +%s%N)
    status=0
    BIN=$bin LINKS=$s ARCHIVE="$dir/scored.jsonl.zst" \
      FETCH_FLAGS="-q --proxy $proxy --delay 0 --max-crawl-delay 50ms --backoff 100ms --max-backoff 1s" \
      SEGMENT_FLAGS=-q SCORE_FLAGS=-q ADD_FLAGS="$add_flags" NEXT_FLAGS="-q ${NEXT_FLAGS:-}" \
      bash scripts/crawl.sh "$profile" "$web/seeds.txt" "$dir/crawl.db" "$pages" >"$dir/stats.txt" 2>"$dir/crawl.log" || status=$?
    t1=$(date +%s%N)
    simweb_stop
    if [ "$status" -eq 2 ]; then
      # Refused before anything ran: linkmodel without examples in the profile.
      echo "| realweb | $t $s | refused: $(head -n 1 "$dir/crawl.log" | cut -c 1-160) | |"
      continue
    elif [ "$status" -ne 0 ]; then
      echo "| realweb | $t $s | failed (exit $status): see $dir/crawl.log | |"
      continue
    fi
    archive=$dir/scored.jsonl.zst
    [ -e "$archive" ] || archive=$dir/scored.jsonl.gz # crawl.sh's fallback without the zstd command
    "$bin/simweb" mirror eval -q --truth "$web/truth.jsonl.zst" --topic "$t" --at "$checkpoints" \
      "$archive" >"$dir/eval.json"
    echo $(( (t1 - t0) / 1000000 )) >"$dir/ms"
    echo "realweb bench: $t $s: $(cat "$dir/eval.json")" >&2
  done
done

python3 - "$work" "$checkpoints" $topics -- $strategies <<'EOF'
import json, os, sys
work, at = sys.argv[1], sys.argv[2].split(",")
i = sys.argv.index("--")
topics, strategies = sys.argv[3:i], sys.argv[i + 1:]
f = lambda d, k: f"{d[k]:.3f}" if k in d else "–"
k500 = "500" if "500" in at else at[0]      # reduced runs: the nearest checkpoints
k1000 = "1000" if "1000" in at else at[-1]
for t in topics:
    upper, best = None, None
    for s in strategies:
        p = f"{work}/{t}/{s}/eval.json"
        if not os.path.exists(p):
            continue
        e = json.load(open(p))
        ms = int(open(f"{work}/{t}/{s}/ms").read())
        h, r, u = e.get("harvest_at", {}), e.get("recall_at", {}), e.get("unfetchable_at", {})
        upper = e["upper_bound"]
        by = ", ".join(f"{k} {v}" for k, v in sorted(e.get("unfetchable_by", {}).items()))
        print(f"| realweb | {t} {s}: harvest@{'/'.join(at)} | {' / '.join(f(h, k) for k in at)} | best ≥ 0.60 @500 |")
        print(f"| realweb | {t} {s}: recall of reachable relevant @{k1000} | {f(r, k1000)} "
              f"({e['found']} of {e['reachable_relevant']} found by fetch {e['pages']}) | best ≥ 0.85 |")
        print(f"| realweb | {t} {s}: fetch slots on unfetchable URLs | {e['unfetchable_share']:.3f} ({by or 'none'}) | ≤ 0.01 |")
        # The first contact with each unreachable host: no page requested,
        # put back uncounted by the frontier, so not a slot (docs/realweb.md).
        probes = e.get("host_probes", 0)
        print(f"| realweb | {t} {s}: host probes (first contact with an unreachable host, not slots) | {probes} "
              f"({probes / max(1, probes + e['pages']):.3f} of the records) | — |")
        # What reached the mirror for hosts it does not have (retries and
        # robots.txt requests included), from its request log.
        unreach, hosts = 0, set()
        for line in open(f"{work}/{t}/{s}/requests.jsonl"):
            q = json.loads(line)
            if q.get("error"):
                unreach += 1
                hosts.add(q["host"])
        print(f"| realweb | {t} {s}: requests to unreachable hosts (mirror log) | {unreach} to {len(hosts)} hosts | — |")
        ff = e.get("fetches_for_recall", {})
        print(f"| realweb | {t} {s}: fetches to recall 0.5 / 0.9 / 1 | {' / '.join(str(ff.get(k, '–')) for k in ('0.5', '0.9', '1'))} | — |")
        lp = e.get("link_priority")
        if lp:
            print(f"| realweb | {t} {s}: link-priority AUC (mean priority of links to relevant / other pages) | "
                  f"{lp['auc']:.3f} ({lp['mean_relevant']:.3f} / {lp['mean_irrelevant']:.3f}) | > 0.5 |")
        print(f"| realweb | {t} {s}: wall time | {ms/1000:.1f} s | — |")
        h500 = h.get(k500, 0)
        if best is None or h500 > best[1]:
            best = (s, h500)
    if upper:
        uh = upper["harvest_at"]
        print(f"| realweb | {t} upper bound (truth-guided): harvest@{'/'.join(at)} | {' / '.join(f(uh, k) for k in at)} "
              f"(every reachable relevant URL by fetch {upper['all_found_at'] or '–'}) | — |")
    if best:
        print(f"| realweb | {t}: best strategy @{k500} | {best[0]} {best[1]:.3f} | ≥ 0.60 @500 |")
EOF
