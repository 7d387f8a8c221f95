#!/usr/bin/env python3
"""Summary of scripts/val_search_knobs.sh: per config and budget, the best latency each run found within its
first N trials (its own tuning measurements, taken interleaved, not re-measured), over the reference
config's best within the same N (above 1: faster). Per workload the geometric mean over seeds; then the
geometric mean over workloads with a bootstrap 95% interval over workloads, and wins.
Usage: val_search_knobs_summary.py OUT_DIR REFERENCE BUDGETS [CONFIG]   (e.g. OUT_DIR A 16,32,64)
With CONFIG, also one line per workload: CONFIG over REFERENCE at each budget (geometric mean over seeds).
LIST: the workload list the runs used (default docs/val_workloads.txt)."""
import math, os, random, sqlite3, statistics, sys


def geomean(xs):
    return math.exp(statistics.mean(math.log(x) for x in xs))


def best(db, spec, limit):
    if not os.path.exists(db):
        return None
    con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
    rows = con.execute("select latency_median_s, error_kind from records where spec=? order by id limit ?",
                       (spec, limit)).fetchall()
    ok = [r[0] for r in rows if r[1] == 'none']
    return min(ok) if ok and len(rows) >= limit else None


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit("val_search_knobs_summary: usage: val_search_knobs_summary.py OUT_DIR REFERENCE BUDGETS [CONFIG]")
    out, ref = argv[1], argv[2]
    try:
        budgets = [int(b) for b in argv[3].split(',')]
        configs = [l.split()[0] for l in open(f'{out}/configs.txt') if l.strip()]
    except (ValueError, OSError) as e:
        sys.exit(f"val_search_knobs_summary: {e}")
    for c in [ref] + argv[4:]:
        if c not in configs:
            sys.exit(f"val_search_knobs_summary: no config {c} in {out}/configs.txt")
    specs = [l.strip() for l in open(os.environ.get('LIST', 'docs/val_workloads.txt')) if l.strip() and not l.startswith('#')]
    seeds = sorted(f[len(ref):-3] for f in os.listdir(out) if f.startswith(ref) and f.endswith('.db') and f[len(ref):-3].isdigit())
    print(f"| config | " + " | ".join(f"@{n} over {ref}@{n} [95% CI], wins" for n in budgets) + " |")
    print("|---|" + "---|" * len(budgets))
    for cfg in configs:
        cells = []
        for n in budgets:
            ratios = []
            for spec in specs:
                per = []
                for seed in seeds:
                    a, b = best(f'{out}/{ref}{seed}.db', spec, n), best(f'{out}/{cfg}{seed}.db', spec, n)
                    if a and b:
                        per.append(a / b)
                if per:
                    ratios.append(geomean(per))
            if not ratios:
                cells.append("-")
                continue
            rng = random.Random(1)
            boots = sorted(geomean([rng.choice(ratios) for _ in ratios]) for _ in range(2000))
            cells.append(f"{geomean(ratios):.3f} [{boots[50]:.3f}-{boots[1949]:.3f}], {sum(r > 1 for r in ratios)}/{len(ratios)}")
        print(f"| {cfg} | " + " | ".join(cells) + " |")
    if len(argv) == 5:
        print(f"\n| workload | " + " | ".join(f"{argv[4]}@{n} over {ref}@{n}" for n in budgets) + " |")
        print("|---|" + "---|" * len(budgets))
        for spec in specs:
            cells = []
            for n in budgets:
                per = [best(f'{out}/{ref}{s}.db', spec, n) / best(f'{out}/{argv[4]}{s}.db', spec, n) for s in seeds
                       if best(f'{out}/{ref}{s}.db', spec, n) and best(f'{out}/{argv[4]}{s}.db', spec, n)]
                cells.append(f"{geomean(per):.3f}" if per else "-")
            print(f"| {spec} | " + " | ".join(cells) + " |")


if __name__ == '__main__':
    main(sys.argv)
