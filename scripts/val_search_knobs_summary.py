#!/usr/bin/env python3
"""Per val workload: the best latency each search setting found within its 64 trials (its own tuning
measurements, taken interleaved), B over A per seed; the geometric mean over workloads of the per-workload
geometric mean over seeds, with a bootstrap 95% interval over workloads. Usage: val_search_knobs_summary.py OUT_DIR"""
import sqlite3, math, statistics, random, sys
out=sys.argv[1] if len(sys.argv) > 1 else 'val-knobs'
specs=[l.strip() for l in open('docs/val_workloads.txt') if l.strip() and not l.startswith('#')]
def best(db, spec, limit=64):
    con=sqlite3.connect(f'file:{db}?mode=ro', uri=True)
    rows=con.execute("select latency_median_s, error_kind from records where spec=? order by id limit ?", (spec,limit)).fetchall()
    ok=[r[0] for r in rows if r[1]=='none']
    return min(ok) if ok else None, len(rows)
ratios=[]
for s in specs:
    per=[]
    for seed in (1,2):
        try:
            a,na=best(f'{out}/A{seed}.db',s); b,nb=best(f'{out}/B{seed}.db',s)
        except Exception: continue
        if a and b and na>=64 and nb>=64: per.append(a/b)
    if per:
        r=math.exp(statistics.mean(math.log(x) for x in per)); ratios.append(r)
        print(f"{s[:60]:60s} B over A: {' '.join(f'{x:.3f}' for x in per)}")
if ratios:
    g=math.exp(statistics.mean(math.log(x) for x in ratios))
    rng=random.Random(1); boots=[]
    for _ in range(2000):
        smp=[rng.choice(ratios) for _ in ratios]; boots.append(math.exp(statistics.mean(math.log(x) for x in smp)))
    boots.sort()
    print(f"workloads {len(ratios)}: geomean speedup of B (2048/4) over A (256/1) = {g:.3f} [{boots[50]:.3f}, {boots[1949]:.3f}]; B wins {sum(r>1 for r in ratios)}")
