#!/usr/bin/env python3
"""pagemodel_labels.py TRUTH TOPIC SCORED LABELLED N: N more labels, as a user adds them.

The user labels pages shown by seed report's labelling section, nearest the model's threshold
first: the pages where a label teaches the model most. SCORED is the crawl's scored docs (.zst
read with the zstd command) judged by the current model; LABELLED is the labels file given so
far (may be empty or missing); the N pages nearest the threshold (0.5) that are not labelled
yet are labelled by the truth (simweb mirror truth) and their label lines written to stdout.
Each page's URL once; failed fetches are never shown."""
import json, os, subprocess, sys

def lines(path):
    if path.endswith('.zst'):
        return subprocess.run(['zstd', '-dcq', path], capture_output=True).stdout.decode('utf-8', 'replace').splitlines()
    return open(path, encoding='utf-8').read().splitlines()

truth_path, topic, scored, labelled, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
truth = {}
for l in lines(truth_path):
    d = json.loads(l)
    if 'url' in d:
        truth[d['url']] = topic in (d.get('relevant') or [])
done = set()
if os.path.exists(labelled):
    for l in lines(labelled):
        if l.strip():
            done.add(json.loads(l)['url'])
cands, seen = [], set()
for l in lines(scored):
    try:
        d = json.loads(l)
    except ValueError:
        continue
    u = d.get('final_url') or d.get('url')
    if d.get('error') or u in seen or u not in truth or d['url'] in done or u in done:
        continue
    seen.add(u)
    cands.append((abs(d.get('score', 0) - 0.5), d['url'], truth[u]))
cands.sort()
for _, u, rel in cands[:n]:
    print(json.dumps({'url': u, 'relevant': rel}))
