#!/usr/bin/env python3
"""Summarizes topk.py's TSV: for each run and workload, the median re-timing of each of the K fastest
schedules (by tuning-time latency). Prints
- how much slower the tuning-time best is, re-timed, than the fastest re-timed of the K (geometric mean);
- how often the tuning-time best is also the fastest re-timed;
- the optimism of tuning-time latencies by tuning rank: geometric mean of re-timed over tuned;
- an honest estimate of confirming the K before trusting the best: pick the fastest of the K by round 1's
  re-timing, judge it by the median of the other rounds, against the tuning-time best judged the same way.
Usage: python3 summary.py TOPK.tsv
"""
import csv, math, statistics, sys
from collections import defaultdict


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: summary.py TOPK.tsv")
    times = defaultdict(list)
    rounds = defaultdict(dict)
    tuned = {}
    with open(sys.argv[1]) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = (row["db"], row["spec"], int(row["rank"]))
            tuned[key] = float(row["tuned_s"])
            if row["retimed_s"]:
                times[key].append(float(row["retimed_s"]))
                rounds[key][int(row["round"])] = float(row["retimed_s"])
    groups = defaultdict(dict)
    for (db, spec, rank), ts in times.items():
        groups[(db, spec)][rank] = statistics.median(ts)
    loss, hits, per_rank = [], 0, defaultdict(list)
    lines = []
    for (db, spec), ranks in sorted(groups.items()):
        if 1 not in ranks or len(ranks) < 2:
            continue
        best = min(ranks.values())
        loss.append(ranks[1] / best)
        hits += ranks[1] == best
        for rank, t in ranks.items():
            per_rank[rank].append(t / tuned[(db, spec, rank)])
        lines.append(f"{db}\t{spec}\t" + "\t".join(f"{ranks[r] * 1e6:.1f}" for r in sorted(ranks)) + f"\t{ranks[1] / best:.3f}")
    print("db\tspec\tre-timed us by tuning rank 1..K\ttuning best over fastest re-timed")
    print("\n".join(lines))
    print(f"\nruns x workloads: {len(loss)}")
    print(f"tuning-time best re-timed over the fastest re-timed of the K: geometric mean {geomean(loss):.3f}, "
          f"max {max(loss):.3f}; the tuning-time best is the fastest in {hits} of {len(loss)}")
    for rank in sorted(per_rank):
        print(f"rank {rank}: re-timed over tuning-time, geometric mean {geomean(per_rank[rank]):.3f}")
    gain = []
    for (db, spec), ranks in sorted(groups.items()):
        first = {r: rounds[(db, spec, r)].get(1) for r in ranks}
        later = {r: [t for k, t in rounds[(db, spec, r)].items() if k != 1] for r in ranks}
        if any(v is None for v in first.values()) or any(not v for v in later.values()) or 1 not in ranks:
            continue
        pick = min(first, key=first.get)
        gain.append(statistics.median(later[1]) / statistics.median(later[pick]))
    if gain:
        print(f"confirming the K (picked on round 1, judged on the other rounds): the tuning-time best over the "
              f"confirmed pick, geometric mean {geomean(gain):.3f} over {len(gain)}, "
              f"{sum(g > 1 for g in gain)} better, {sum(g < 1 for g in gain)} worse")


if __name__ == "__main__":
    main()
