#!/usr/bin/env python3
"""Summary of `worldtune remeasure` over the runs of scripts/val_search_knobs.sh: per config, the re-measured
latency of each run's best over the reference config's (above 1: faster), paired by seed; per workload the
geometric mean over seeds, then the geometric mean over workloads with a bootstrap 95% interval over
workloads, and wins. The same from the latencies the runs measured while tuning, for comparison.
Usage: val_remeasured_summary.py OUT_DIR REFERENCE [CONFIG]
  OUT_DIR holds configs.txt (from val_search_knobs.sh) and remeasured.tsv, written by
  worldtune remeasure --db OUT_DIR/<config><seed>.db,... --list docs/val_workloads.txt --out OUT_DIR/remeasured.tsv
With CONFIG, also one line per workload: CONFIG over REFERENCE, re-measured and as tuned."""
import csv, math, os, random, statistics, sys


def geomean(xs):
    return math.exp(statistics.mean(math.log(x) for x in xs))


def interval(ratios):
    rng = random.Random(1)
    boots = sorted(geomean([rng.choice(ratios) for _ in ratios]) for _ in range(2000))
    return f"{geomean(ratios):.3f} [{boots[50]:.3f}-{boots[1949]:.3f}], {sum(r > 1 for r in ratios)}/{len(ratios)}"


def per_workload(table, specs, ref, cfg, seeds, column):
    out = {}
    for spec in specs:
        per = [table[(spec, ref + s)][column] / table[(spec, cfg + s)][column] for s in seeds
               if (spec, ref + s) in table and (spec, cfg + s) in table]
        if per:
            out[spec] = geomean(per)
    return out


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit("val_remeasured_summary: usage: val_remeasured_summary.py OUT_DIR REFERENCE [CONFIG]")
    out, ref = argv[1], argv[2]
    try:
        configs = [l.split()[0] for l in open(os.path.join(out, 'configs.txt')) if l.strip()]
        table, specs = {}, []
        with open(os.path.join(out, 'remeasured.tsv')) as f:
            for row in csv.DictReader(f, delimiter='\t'):
                re_us, tune_us = float(row['remeasured_us']), float(row['tuning_us'])
                if math.isfinite(re_us) and re_us > 0 and tune_us > 0:
                    table[(row['spec'], row['run'])] = {'re': re_us, 'tune': tune_us}
                    if row['spec'] not in specs:
                        specs.append(row['spec'])
    except (OSError, KeyError, ValueError) as e:
        sys.exit(f"val_remeasured_summary: {e}")
    for c in [ref] + argv[3:]:
        if c not in configs:
            sys.exit(f"val_remeasured_summary: no config {c} in {out}/configs.txt")
    runs = {run for _, run in table}
    seeds = sorted({r[len(ref):] for r in runs if r.startswith(ref) and r[len(ref):].isdigit()})
    print(f"| config | re-measured over {ref} [95% CI], wins | as tuned over {ref} [95% CI], wins |")
    print("|---|---|---|")
    for cfg in configs:
        cells = []
        for column in ('re', 'tune'):
            ratios = list(per_workload(table, specs, ref, cfg, seeds, column).values())
            cells.append(interval(ratios) if ratios else "-")
        print(f"| {cfg} | " + " | ".join(cells) + " |")
    if len(argv) == 4:
        cfg = argv[3]
        re = per_workload(table, specs, ref, cfg, seeds, 're')
        tune = per_workload(table, specs, ref, cfg, seeds, 'tune')
        print(f"\n| workload | {cfg} over {ref}, re-measured | as tuned |")
        print("|---|---:|---:|")
        for spec in specs:
            print(f"| {spec} | {re.get(spec, float('nan')):.3f} | {tune.get(spec, float('nan')):.3f} |")


if __name__ == '__main__':
    main(sys.argv)
