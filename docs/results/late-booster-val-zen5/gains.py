#!/usr/bin/env python3
"""How much each config of a val A/B still gains late in its runs: per config and budget N, the best found
within N trials over the best within the last budget (as tuned; above 1: the run was still improving),
geometric mean over seeds, then over the val workloads.
Usage: gains.py RUNS_DIR [BUDGETS] (default 64,128,192,256; the last is the reference); RUNS_DIR holds
configs.txt and <config><seed>.db as scripts/val_search_knobs.sh writes them."""
import glob, importlib.util, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, '..', '..', '..'))
spec = importlib.util.spec_from_file_location('knobs', os.path.join(root, 'scripts', 'val_search_knobs_summary.py'))
knobs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(knobs)


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("gains: usage: gains.py RUNS_DIR [BUDGETS]")
    runs = argv[1]
    try:
        budgets = [int(b) for b in (argv[2] if len(argv) == 3 else '64,128,192,256').split(',')]
        configs = [l.split()[0] for l in open(os.path.join(runs, 'configs.txt')) if l.strip()]
        specs = [l.strip() for l in open(os.path.join(root, 'docs', 'val_workloads.txt')) if l.strip() and not l.startswith('#')]
    except (OSError, ValueError) as e:
        sys.exit(f"gains: {e}")
    last = budgets[-1]
    for cfg in configs:
        seeds = sorted(re.fullmatch(re.escape(cfg) + r'(\d+)\.db', os.path.basename(p)).group(1)
                       for p in glob.glob(os.path.join(runs, cfg + '*.db'))
                       if re.fullmatch(re.escape(cfg) + r'(\d+)\.db', os.path.basename(p)))
        if not seeds:
            sys.exit(f"gains: no databases of {cfg} in {runs}")
        cells = []
        for n in budgets[:-1]:
            per_workload = [knobs.geomean([knobs.best(os.path.join(runs, f'{cfg}{s}.db'), sp, n) /
                                           knobs.best(os.path.join(runs, f'{cfg}{s}.db'), sp, last) for s in seeds])
                            for sp in specs]
            cells.append(f"@{n} {knobs.geomean(per_workload):.3f}")
        print(f"{cfg} (seeds {','.join(seeds)}), best over best@{last}: " + ', '.join(cells))


if __name__ == '__main__':
    main(sys.argv)
