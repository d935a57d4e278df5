#!/usr/bin/env python3
"""pagemodel_eval.py [--exclude LABELS] TRUTH TOPIC SCORED...: how well score's verdicts judge pages.

Reads the truth of the real dev web (simweb mirror truth: truth.jsonl.zst) and scored docs
(score output, a crawl's archive; .zst read through the zstd command), and prints one JSON
line: the pages judged (docs without error whose URL the truth knows), verdict precision and
recall of `relevant` against the truth, and the AUC of `score` (and of scores.vsm, the
profile's own score, when present). Each URL counts once (its first doc). --exclude leaves out
the pages of a labels file (those a model learned from: judged apart from them)."""
import json, subprocess, sys

def lines(path):
    if path.endswith('.zst'):
        # A crawl that ended before its first frame left no archive: no lines.
        out = subprocess.run(['zstd', '-dcq', path], capture_output=True).stdout
        return out.decode('utf-8', 'replace').splitlines()
    return open(path, encoding='utf-8').read().splitlines()

def auc(pairs):
    pairs = sorted(pairs)
    pos = sum(1 for _, y in pairs if y)
    neg = len(pairs) - pos
    if pos == 0 or neg == 0:
        return None
    rank, i, total = 0.0, 0, 0.0
    while i < len(pairs):
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        mid = (i + 1 + j) / 2
        total += mid * sum(1 for k in range(i, j) if pairs[k][1])
        i = j
    return (total - pos * (pos + 1) / 2) / (pos * neg)

def main():
    args = sys.argv[1:]
    exclude = set()
    if args and args[0] == '--exclude':
        for l in lines(args[1]):
            if l.strip():
                exclude.add(json.loads(l)['url'])
        args = args[2:]
    truth_path, topic, files = args[0], args[1], args[2:]
    truth = {}
    for l in lines(truth_path):
        n = json.loads(l)
        if 'url' in n:
            truth[n['url']] = topic in (n.get('relevant') or [])
    seen = set()
    tp = fp = fn = tn = 0
    sc, kw = [], []
    for f in files:
        for l in lines(f):
            try:
                d = json.loads(l)
            except ValueError:
                continue
            if d.get('error'):
                continue
            u = d.get('final_url') or d.get('url')
            if u not in truth or u in seen or u in exclude or d.get('url') in exclude:
                continue
            seen.add(u)
            y = truth[u]
            r = bool(d.get('relevant'))
            tp += r and y; fp += r and not y; fn += (not r) and y; tn += (not r) and not y
            sc.append((d.get('score', 0), y))
            if 'vsm' in (d.get('scores') or {}):
                kw.append((d['scores']['vsm'], y))
    res = {'topic': topic, 'judged': len(seen), 'relevant_truth': tp + fn,
           'precision': round(tp / (tp + fp), 3) if tp + fp else None,
           'recall': round(tp / (tp + fn), 3) if tp + fn else None,
           'tp': tp, 'fp': fp, 'fn': fn, 'tn': tn,
           'auc': round(auc(sc), 3) if auc(sc) is not None else None}
    if kw:
        a = auc(kw)
        res['auc_profile'] = round(a, 3) if a is not None else None
    print(json.dumps(res))

main()
