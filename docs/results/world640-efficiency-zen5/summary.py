#!/usr/bin/env python3
"""Summary of run.sh: per workload and budget N, static@640's latency over world@N's (above 1: world@N is
faster), re-measured side by side and as tuned; a workload's latency is the median over seeds of each run's
best. "reaches" counts the workloads where world@N is at least as fast as static@640.
Usage: summary.py REMEASURED.tsv"""
import csv, math, statistics, sys
from collections import defaultdict


def main(argv):
    if len(argv) != 2:
        sys.exit("summary: usage: summary.py REMEASURED.tsv")
    lat = defaultdict(lambda: defaultdict(list))  # (spec, column) -> kind -> values over seeds
    specs = []
    try:
        with open(argv[1]) as f:
            for row in csv.DictReader(f, delimiter='\t'):
                name, _, budget = row['run'].partition('@')
                column = name.rstrip('0123456789') + '@' + budget
                re_us = float(row['remeasured_us'])
                if math.isfinite(re_us):
                    lat[(row['spec'], column)]['re'].append(re_us)
                    lat[(row['spec'], column)]['tune'].append(float(row['tuning_us']))
                if row['spec'] not in specs:
                    specs.append(row['spec'])
    except (OSError, KeyError, ValueError) as e:
        sys.exit(f"summary: {e}")
    budgets = sorted({int(c.split('@')[1]) for _, c in lat if c.startswith('world@')})
    for kind, label in (('re', 're-measured side by side'), ('tune', 'as tuned')):
        print(f"\nstatic@640 over world@N, {label} (median over seeds):\n")
        print("| workload | " + " | ".join(f"world@{n}" for n in budgets) + " |")
        print("|---|" + "---:|" * len(budgets))
        reaches, ratios = defaultdict(int), defaultdict(list)
        for spec in specs:
            static = lat.get((spec, 'static@640'), {}).get(kind)
            cells = []
            for n in budgets:
                world = lat.get((spec, f'world@{n}'), {}).get(kind)
                if static and world:
                    r = statistics.median(static) / statistics.median(world)
                    reaches[n] += r >= 1
                    ratios[n].append(r)
                    cells.append(f"{r:.3f}")
                else:
                    cells.append("-")
            print(f"| {spec} | " + " | ".join(cells) + " |")
        print("| geometric mean | " + " | ".join(
            f"{math.exp(statistics.mean(math.log(r) for r in ratios[n])):.3f}" if ratios[n] else "-" for n in budgets) + " |")
        print("| reaches static@640 | " + " | ".join(f"{reaches[n]} of {len(specs)}" for n in budgets) + " |")


if __name__ == '__main__':
    main(sys.argv)
