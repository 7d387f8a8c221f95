"""The end-to-end estimate with libtorch at its fastest round instead of its median.

`worldtune estimate` prints libtorch's rate for every round on stderr (estimate.log: subgraph-major, ROUNDS
lines per subgraph, in estimate.md's order). Each subgraph's libtorch latency is scaled by its median rate
over its best rate; worldtune's side stays the median. --without PREFIX leaves out the subgraphs whose spec
starts with PREFIX (e.g. pool2d).
Usage: python3 libtorch_best_round.py estimate.md estimate.log ROUNDS [--without PREFIX]
"""
import re
import statistics
import sys

UNIT_MS = {"us": 1e-3, "ms": 1.0}
ROW = re.compile(r"\| `([^`]+)` \| (\d+) \| ([\d.]+) (us|ms) \| ([\d.]+) (us|ms) \|")


def subgraph_rows(md_path):
    rows = []
    for line in open(md_path):
        m = ROW.match(line)
        if m:
            rows.append((m.group(1), int(m.group(2)), float(m.group(3)) * UNIT_MS[m.group(4)],
                         float(m.group(5)) * UNIT_MS[m.group(6)]))
    return rows


def main(argv):
    if len(argv) not in (4, 6) or (len(argv) == 6 and argv[4] != "--without"):
        sys.exit("usage: libtorch_best_round.py estimate.md estimate.log ROUNDS [--without PREFIX]")
    rows, rounds = subgraph_rows(argv[1]), int(argv[3])
    without = argv[5] if len(argv) == 6 else None
    rates = [float(x) for x in re.findall(r"libtorch\s+([\d.]+) GFLOP/s", open(argv[2]).read())]
    if len(rates) != rounds * len(rows):
        sys.exit(f"libtorch_best_round: {len(rates)} libtorch rounds in the log, expected {rounds} x {len(rows)}")
    ours = median_sum = best_sum = 0.0
    for i, (spec, count, ours_ms, libtorch_ms) in enumerate(rows):
        if without and spec.startswith(without):
            continue
        r = rates[i * rounds:(i + 1) * rounds]
        ours += count * ours_ms
        median_sum += count * libtorch_ms
        best_sum += count * libtorch_ms * statistics.median(r) / max(r)
    print(f"worldtune {ours:.1f} ms; libtorch at its median round {median_sum:.1f} ms ({median_sum / ours:.2f}x), "
          f"at its fastest round {best_sum:.1f} ms ({best_sum / ours:.2f}x)")


if __name__ == "__main__":
    main(sys.argv)
