#!/usr/bin/env python3
"""dedupe_eval.py CORPUS.jsonl OUTPUT.jsonl: pairwise precision and recall of dedupe's groups.

OUTPUT is `dedupe --emit-dups --all` over CORPUS. Every doc's predicted group is its kept
record's URL (its own URL when kept, duplicate_of when dropped). Over all pairs of docs:
true positives are pairs of one cluster in one group, false positives pairs of different
clusters in one group, false negatives pairs of one cluster in different groups. Prints
precision, recall, F1, recall per copy kind (copy and its original in one group), and the
false merges within one site template.
"""
import json, sys
from collections import Counter, defaultdict
from itertools import combinations

corpus = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
group = {}
for l in open(sys.argv[2], encoding="utf-8"):
    r = json.loads(l)
    group[r["url"]] = r.get("duplicate_of") or r["url"]
# Chains (a dropped copy of a record later dropped itself) cannot happen, but resolve anyway.
def root(u):
    seen = set()
    while group.get(u, u) != u and u not in seen:
        seen.add(u)
        u = group[u]
    return u
missing = [d["url"] for d in corpus if d["url"] not in group]
if missing:
    sys.exit("dedupe_eval: %d docs missing from the output, e.g. %s" % (len(missing), missing[0]))
cl = {d["url"]: d["meta"]["cluster"] for d in corpus}
site = {d["url"]: d["meta"]["site"] for d in corpus}
g = {d["url"]: root(d["url"]) for d in corpus}
tp = fp = fn = 0
same_site_fp = 0
by_group = defaultdict(list)
for u in g:
    by_group[g[u]].append(u)
for members in by_group.values():
    for a, b in combinations(members, 2):
        if cl[a] == cl[b]:
            tp += 1
        else:
            fp += 1
            if site[a] == site[b]:
                same_site_fp += 1
by_cluster = defaultdict(list)
for u in g:
    by_cluster[cl[u]].append(u)
for members in by_cluster.values():
    for a, b in combinations(members, 2):
        if g[a] != g[b]:
            fn += 1
p = tp / (tp + fp) if tp + fp else 1.0
r = tp / (tp + fn) if tp + fn else 1.0
orig = {d["meta"]["cluster"]: d["url"] for d in corpus if d["meta"]["kind"] == "original"}
kind_hit, kind_all = Counter(), Counter()
for d in corpus:
    k = d["meta"]["kind"]
    if k == "original":
        continue
    kind_all[k] += 1
    if g[d["url"]] == g[orig[d["meta"]["cluster"]]]:
        kind_hit[k] += 1
same_site_pairs = sum(1 for a, b in combinations(corpus, 2) if a["meta"]["site"] == b["meta"]["site"] and a["meta"]["cluster"] != b["meta"]["cluster"])
print(json.dumps({"docs": len(corpus), "precision": round(p, 4), "recall": round(r, 4),
                  "f1": round(2 * p * r / (p + r), 4) if p + r else 0, "tp": tp, "fp": fp, "fn": fn,
                  "same_template_pairs": same_site_pairs, "same_template_false_merges": same_site_fp,
                  "recall_by_kind": {k: round(kind_hit[k] / kind_all[k], 3) for k in sorted(kind_all)},
                  "copies_by_kind": dict(sorted(kind_all.items()))}))
