#!/usr/bin/env python3
"""Measurement noise of the tuning runs of run.sh: through their first 16 trials the configs of configs.txt
measure the same schedules (same seed, same model, no measured incumbent yet), so any difference between
their latencies is the noise of measuring one schedule twice, in two runs a few minutes apart.
Prints: how many first-16 candidates are identical across configs; the |log ratio| of one schedule's two
measurements (median, 90th percentile); split into a per-run shift (the median log ratio of a run pair)
and the residual within a run pair; the same pairs by their fastest repeat; and the best-of-16 spread
across configs.
Usage: noise.py WORKDIR [SEEDS]   (WORKDIR as given to run.sh; SEEDS default 1,2,3)"""
import math, os, sqlite3, statistics, sys


def rows(db, spec):
    con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
    return con.execute("select actions, latency_median_s, error_kind, latency_min_s from records where spec=? order by id",
                       (spec,)).fetchall()


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("noise: usage: noise.py WORKDIR [SEEDS]")
    work = argv[1]
    seeds = [int(s) for s in (argv[2] if len(argv) == 3 else "1,2,3").split(',')]
    configs = [l.split()[0] for l in open(os.path.join(work, 'configs.txt')) if l.strip()]
    here = os.path.dirname(os.path.abspath(__file__))
    specs = [l.strip() for l in open(os.path.join(here, '../../val_workloads.txt')) if l.strip() and not l.startswith('#')]
    same = total = 0
    pair_logs, min_logs, shifts, residuals, best_spread = [], [], [], [], []
    for seed in seeds:
        for spec in specs:
            runs = [rows(os.path.join(work, f'{c}{seed}.db'), spec)[:16] for c in configs]
            if any(len(r) < 16 for r in runs):
                continue
            for i in range(16):
                total += 1
                same += all(r[i][0] == runs[0][i][0] for r in runs)
            for a in range(len(runs)):
                for b in range(a + 1, len(runs)):
                    logs = [math.log(x[1] / y[1]) for x, y in zip(runs[a], runs[b])
                            if x[0] == y[0] and x[2] == y[2] == 'none']
                    if not logs:
                        continue
                    shift = statistics.median(logs)
                    pair_logs += [abs(l) for l in logs]
                    min_logs += [abs(math.log(x[3] / y[3])) for x, y in zip(runs[a], runs[b])
                                 if x[0] == y[0] and x[2] == y[2] == 'none']
                    shifts.append(abs(shift))
                    residuals += [abs(l - shift) for l in logs]
            bests = [min(x[1] for x in r if x[2] == 'none') for r in runs]
            best_spread.append(max(bests) / min(bests))
    print(f"first-16 candidates identical in every config: {same} of {total}")
    print(f"one schedule measured in two runs, |log ratio|: median {statistics.median(pair_logs):.3f}, "
          f"90th percentile {pct(pair_logs, 0.9):.3f} (n={len(pair_logs)})")
    print(f"the same with each measurement's fastest repeat (latency_min) instead of its median: median "
          f"{statistics.median(min_logs):.3f}, 90th percentile {pct(min_logs, 0.9):.3f}")
    print(f"per-run shift |median log ratio| of a run pair: median {statistics.median(shifts):.3f}, "
          f"max {max(shifts):.3f} (n={len(shifts)})")
    print(f"residual within a run pair: median {statistics.median(residuals):.3f}, 90th percentile {pct(residuals, 0.9):.3f}")
    print(f"best of the first 16, max/min over configs: median {statistics.median(best_spread):.3f}, "
          f"90th percentile {pct(best_spread, 0.9):.3f} (n={len(best_spread)})")


if __name__ == '__main__':
    main(sys.argv)
