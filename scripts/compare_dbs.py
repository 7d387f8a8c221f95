#!/usr/bin/env python3
"""Re-measure, side by side, the best schedule each of two records databases holds per workload.

For every (spec, source) present in both databases, the fastest correct record of each is measured again
with `worldtune measure --no-store`, round-robin over all of them, ROUNDS times (so both sides see the same
machine state), and the medians are compared: speedup = median(A) / median(B), > 1 when B's best is faster.

Usage: scripts/compare_dbs.py A.db B.db [--worldtune build/worldtune] [--rounds 3] [--threads 2]
Measures: run it on a quiet machine.
"""
import argparse
import math
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile

UNITS = {'s': 1.0, 'ms': 1e-3, 'us': 1e-6, 'µs': 1e-6}


def best_records(path):
    if not os.path.exists(path):
        sys.exit(f'compare_dbs: no database {path}')
    con = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    rows = con.execute("select spec, source, actions, min(latency_median_s) from records "
                       "where error_kind = 'none' group by spec, source").fetchall()
    return {(spec, source): actions for spec, source, actions, _ in rows}


def measure(worldtune, spec, actions, threads):
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        f.write(actions)
    try:
        out = subprocess.run([worldtune, 'measure', spec, '--actions', f.name, '--no-store', '--threads', str(threads)],
                             capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    m = re.search(r'median\s+([0-9.]+)\s+(ms|us|µs|s)\b', out.stdout)
    if out.returncode != 0 or not m:
        sys.exit(f'compare_dbs: measuring {spec} failed: {(out.stderr or out.stdout).strip()[:300]}')
    return float(m.group(1)) * UNITS[m.group(2)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('a')
    ap.add_argument('b')
    ap.add_argument('--worldtune', default='build/worldtune')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--threads', type=int, default=2)
    args = ap.parse_args()
    a, b = best_records(args.a), best_records(args.b)
    keys = sorted(set(a) & set(b))
    if not keys:
        sys.exit('compare_dbs: the databases share no (spec, source) with a correct record')
    times = {}
    for _ in range(args.rounds):
        for key in keys:
            for side, records in (('a', a), ('b', b)):
                times.setdefault((key, side), []).append(measure(args.worldtune, key[0], records[key], args.threads))
    ratios = []
    print('| workload | source | A (ms) | B (ms) | A / B |')
    print('|---|---|---:|---:|---:|')
    for key in keys:
        ta, tb = times[(key, 'a')], times[(key, 'b')]
        ma, mb = statistics.median(ta), statistics.median(tb)
        ratios.append(ma / mb)
        print(f'| {key[0]} | {key[1]} | {ma * 1e3:.3f} ({min(ta) * 1e3:.3f}–{max(ta) * 1e3:.3f}) | '
              f'{mb * 1e3:.3f} ({min(tb) * 1e3:.3f}–{max(tb) * 1e3:.3f}) | {ma / mb:.2f}× |')
    print(f'\ngeometric mean A / B: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}× over {len(ratios)} workloads '
          f'({args.rounds} rounds, {args.threads} threads)')


if __name__ == '__main__':
    main()
