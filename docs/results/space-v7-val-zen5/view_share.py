#!/usr/bin/env python3
"""Per workload of the space-v7 A/B: how many of a v7 run's first 64 measured schedules compute the strided
view `sub` (at the output's tile or the root), and in how many of the 5 seeds the run's best does.
Usage, from the repository root: python3 docs/results/space-v7-val-zen5/view_share.py > view_share.txt"""
import glob, gzip, json, os, sys
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
measured, computed, best_computes, runs = defaultdict(int), defaultdict(int), defaultdict(int), defaultdict(int)
for path in sorted(glob.glob(os.path.join(here, 'P7*.jsonl.gz'))):
    per_spec = defaultdict(list)
    with gzip.open(path, 'rt') as f:
        for line in f:
            r = json.loads(line)
            if r['error_kind'] == 'none' and r['latency_median_s'] > 0:
                per_spec[r['spec']].append(r)
    for spec, records in per_spec.items():
        records = sorted(records, key=lambda r: r['created_at'])[:64]
        places = lambda r: any(a[0] in ('CR', 'CA') and a[1] == 'sub' for a in r['actions'])
        measured[spec] += len(records)
        computed[spec] += sum(places(r) for r in records)
        best_computes[spec] += places(min(records, key=lambda r: r['latency_median_s']))
        runs[spec] += 1
if not runs:
    sys.exit('view_share: no P7*.jsonl.gz records beside this script')
print('| workload | measured schedules that compute `sub` | runs whose best computes it |')
print('|---|---:|---:|')
for spec in sorted(runs):
    print(f'| `{spec}` | {computed[spec]} / {measured[spec]} | {best_computes[spec]} / {runs[spec]} |')
