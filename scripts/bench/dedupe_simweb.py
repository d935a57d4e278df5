#!/usr/bin/env python3
"""dedupe_simweb.py pick TRUTH.jsonl URLS.txt | eval TRUTH.jsonl DOCS.jsonl OUTPUT.jsonl

pick: from simweb's ground truth (`simweb truth`), 12 article pages from each of 40 sites
with 20 or more, and the print version of each (truth "canonical": the article it copies),
shuffled. The articles of one site share its template: the distinct pairs.

eval: pairwise precision and recall of dedupe's groups (OUTPUT, `dedupe --emit-dups --all`
over DOCS, the pages fetched and segmented) against the truth: a print version and its
article form one cluster; every other pair is distinct.
"""
import itertools, json, random, sys
from collections import defaultdict

def load_truth(path):
    return {t["url"]: t for t in map(json.loads, open(path, encoding="utf-8"))}

if sys.argv[1] == "pick":
    truth = load_truth(sys.argv[2])
    r = random.Random(8)
    arts, prints = defaultdict(list), {}
    for t in truth.values():
        if t.get("status") != 200:
            continue
        if t["kind"] == "article":
            arts[t["host"]].append(t["url"])
        elif t["kind"] == "print" and t.get("canonical"):
            prints[t["canonical"]] = t["url"]
    hosts = sorted(h for h in arts if len(arts[h]) >= 20)
    r.shuffle(hosts)
    urls = []
    for h in hosts[:40]:
        for u in r.sample(sorted(arts[h]), 12):
            urls.append(u)
            if u in prints:
                urls.append(prints[u])
    r.shuffle(urls)
    open(sys.argv[3], "w").write("\n".join(urls) + "\n")
    sys.exit(0)

truth = load_truth(sys.argv[2])
docs = [json.loads(l) for l in open(sys.argv[3], encoding="utf-8")]
group = {}
for l in open(sys.argv[4], encoding="utf-8"):
    o = json.loads(l)
    group[o["url"]] = o.get("duplicate_of") or o["url"]
cl = {d["url"]: truth.get(d["url"], {}).get("canonical") or d["url"] for d in docs if not d.get("error")}
host = {u: u.split("/")[2] for u in cl}
tp = fp = fn = same = 0
for a, b in itertools.combinations(cl, 2):
    sg, sc = group.get(a, a) == group.get(b, b), cl[a] == cl[b]
    tp += sg and sc
    fp += sg and not sc
    fn += sc and not sg
    same += host[a] == host[b] and not sc
print(json.dumps({"docs": len(cl), "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
                  "recall": round(tp / (tp + fn), 4) if tp + fn else 1.0, "tp": tp, "fp": fp, "fn": fn,
                  "same_site_distinct_pairs": same}))
