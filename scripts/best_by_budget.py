#!/usr/bin/env python3
"""Tuning-time best by budget, from a compare or bench database (no measuring).

Usage: python3 scripts/best_by_budget.py DB REFERENCE BUDGETS
  DB         a records database written by `worldtune compare` or `worldtune bench`
  REFERENCE  the model whose best at the largest budget is 1.0 (as in the source, e.g. static/v2)
  BUDGETS    comma-separated trial counts, e.g. 8,16,32,64

A run is one source (`compare:MODEL:seedN` or `bench:MODEL:seedN`) on one workload; its best within N
trials is the highest GFLOP/s among its first N records as measured while tuning (not re-measured). Per
model and budget, prints the geometric mean over workloads of (mean over seeds of that best) over (mean
over seeds of the reference's best at the largest budget).
"""
import collections, math, sqlite3, sys


def main(argv):
    if len(argv) != 4:
        sys.exit("best_by_budget: usage: best_by_budget.py DB REFERENCE BUDGETS")
    try:
        budgets = [int(b) for b in argv[3].split(",")]
    except ValueError:
        sys.exit(f"best_by_budget: budgets must be integers: {argv[3]}")
    try:
        con = sqlite3.connect(f"file:{argv[1]}?mode=ro", uri=True)
        rows = con.execute("select spec, source, gflops from records order by id").fetchall()
    except sqlite3.Error as e:
        sys.exit(f"best_by_budget: {argv[1]}: {e}")
    seeds = collections.defaultdict(lambda: collections.defaultdict(list))  # (spec, model) -> seed -> GFLOP/s in order
    for spec, source, gflops in rows:
        parts = source.split(":")
        if len(parts) < 3 or parts[0] not in ("compare", "bench"):
            continue
        seeds[(spec, ":".join(parts[1:-1]))][parts[-1]].append(gflops or 0.0)
    models = sorted({m for _, m in seeds})
    if argv[2] not in models:
        sys.exit(f"best_by_budget: no runs of {argv[2]} (models: {', '.join(models)})")
    specs = sorted({s for s, m in seeds if m == argv[2]})
    def mean_best(spec, model, n):
        runs = seeds.get((spec, model), {})
        return sum(max(r[:n]) for r in runs.values()) / len(runs) if runs else None
    print("| model | " + " | ".join(f"@{b}" for b in budgets) + " |")
    print("|---|" + "---:|" * len(budgets))
    for m in models:
        cells = []
        for b in budgets:
            logs = []
            for s in specs:
                v, ref = mean_best(s, m, b), mean_best(s, argv[2], max(budgets))
                if v and ref:
                    logs.append(math.log(v / ref))
            cells.append(f"{math.exp(sum(logs) / len(logs)):.3f} ({len(logs)})" if logs else "–")
        print(f"| {m} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv)
