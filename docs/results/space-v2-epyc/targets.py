#!/usr/bin/env python3
"""Issue 22's targets from a `worldtune compare` report of one model at 64 and 640 trials beside oneDNN,
OpenBLAS and libtorch: geometric means of the model's GFLOP/s over each peer's per group of workloads, and
each workload's share of the FMA peak (scripts/fma_peak.sh). Rows of each LATER report (the same model columns) replace
the first report's rows of the same workload (a peer it lacks is left out for those rows): each ratio stays
within one run. PEAK is a number of GFLOP/s or scripts/fma_peak.sh's output (its last line's figure). Usage:
targets.py REPORT PEAK [LATER_REPORT...]"""
import math, re, sys


def read_report(path):
    """The column names and {workload: {column: GFLOP/s or None}} of a compare report's table."""
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        sys.exit(f"targets: {e}")
    header = next((l for l in lines if l.startswith('| workload |')), None)
    if header is None:
        sys.exit(f"targets: {path}: no table of workloads")
    names = [c.strip() for c in header.strip().strip('|').split('|')][1:]
    rows = {}
    for l in lines:
        cells = [c.strip() for c in l.strip().strip('|').split('|')]
        if l.startswith('| `') and len(cells) == len(names) + 1:
            rows[cells[0].strip('`')] = {n: (float(c.split()[0]) if c[:1].isdigit() else None) for n, c in zip(names, cells[1:])}
    return names, rows


def read_peak(arg):
    """PEAK as a number, or the all-threads GFLOP/s on the last line of a scripts/fma_peak.sh output file."""
    try:
        return float(arg)
    except ValueError:
        pass
    try:
        found = re.search(r'([0-9.]+) GFLOP/s in all', open(arg).read().splitlines()[-1])
    except (OSError, IndexError) as e:
        sys.exit(f"targets: {arg}: {e}")
    if not found:
        sys.exit(f"targets: {arg}: neither a number nor scripts/fma_peak.sh's output")
    return float(found.group(1))


def main(argv):
    if len(argv) < 3:
        sys.exit("targets: usage: targets.py REPORT PEAK [LATER_REPORT...]")
    peak = read_peak(argv[2])
    names, rows = read_report(argv[1])
    for later in argv[3:]:
        later_names, later_rows = read_report(later)
        if [n for n in later_names if '@' in n] != [n for n in names if '@' in n]:
            sys.exit(f"targets: {later}: its model columns differ from {argv[1]}'s")
        rows.update(later_rows)
    models = [n for n in names if '@' in n]

    def geomean(spec_prefixes, model, peer):
        ratios = [r[model] / r[peer] for s, r in rows.items() if s.startswith(spec_prefixes) and r.get(peer) and r[model]]
        return f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}" if ratios else "-"

    for m in models:
        print(f"{m}: conv/dense/matmul over onednn {geomean(('conv', 'dense', 'matmul'), m, 'onednn')}, matmuls over openblas "
              f"{geomean(('matmul',), m, 'openblas')}, layernorm/softmax over onednn {geomean(('layernorm', 'softmax'), m, 'onednn')}, "
              f"over libtorch {geomean(('layernorm', 'softmax'), m, 'libtorch')}")
        print(f"  over onednn by group: conv {geomean(('conv',), m, 'onednn')}, dense {geomean(('dense',), m, 'onednn')}, "
              f"matmul {geomean(('matmul',), m, 'onednn')}")
        for s, r in rows.items():
            if r[m]:
                print(f"  {s}: {100 * r[m] / peak:.0f}% of peak" + (f", {r[m] / r['onednn']:.3f} of onednn" if r.get('onednn') else ""))


if __name__ == '__main__':
    main(sys.argv)
