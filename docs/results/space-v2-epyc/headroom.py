#!/usr/bin/env python3
"""Headroom (issue 22): per workload, random search's best within 64 trials over the best any run of the
compare database found within 640, both as measured while tuning (not re-measured; the maximum of noisy
measurements, so both are biased upward). Usage: headroom.py RANDOM_DB COMPARE_DB"""
import math, sqlite3, sys


def main(argv):
    if len(argv) != 3:
        sys.exit("headroom: usage: headroom.py RANDOM_DB COMPARE_DB")
    try:
        rand = sqlite3.connect(f"file:{argv[1]}?mode=ro", uri=True)
        comp = sqlite3.connect(f"file:{argv[2]}?mode=ro", uri=True)
        specs = [s for (s,) in comp.execute("select distinct spec from records where source like 'compare:%'")]
        ratios = []
        for spec in specs:
            r = rand.execute("select max(gflops) from (select gflops from records where spec=? order by id limit 64)", (spec,)).fetchone()[0]
            best = comp.execute("select max(gflops) from (select gflops from records where spec=? and source like 'compare:%' "
                                "order by id limit 640)", (spec,)).fetchone()[0]
            if r and best:
                ratios.append(r / best)
                print(f"{spec}: random@64 {r:.1f}, best@640 {best:.1f} GFLOP/s, ratio {r / best:.3f}")
    except sqlite3.Error as e:
        sys.exit(f"headroom: {e}")
    if ratios:
        print(f"geometric mean over {len(ratios)} workloads: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}")


if __name__ == '__main__':
    main(sys.argv)
