#!/usr/bin/env python3
"""Where a sketch rule's Func is best computed, read from measured records (no measuring).

Usage: python3 scripts/placement.py KIND DB SINCE [SOURCE]
  KIND    pack:      where a packed input (the wrapper of a CH action) is computed
          reduction: where the reductions fused into the output are computed (the Funcs with an update
                     stage, ".u0", that are not the output)
  DB      a records database (worldtune records import --db DB FILE.jsonl)
  SINCE   only records created at or after this ISO time (e.g. 2026-12-02T05:50)
  SOURCE  only records whose source contains this text (e.g. random: unbiased samples)

For every workload where some record has such a Func, each record's GFLOP/s is divided by the workload's
best, and the records are grouped by where those Funcs are computed: at the root (CR), once per iteration
of the output's outermost loop (its parallel loop, or the same loop of a serial schedule), or at another
loop of the output (per tile); several Funcs give a "+" of their places, "none" a schedule without one.
Prints a markdown table: records, median and geometric mean of the ratio, workloads each group wins; then
the best GFLOP/s of each placement per workload.
"""
import collections, json, math, sqlite3, statistics, sys


def packed_funcs(actions):
    return [a[1] + "_in_" + a[2] if a[2] else a[1] + "_in" for a in actions if a[0] == "CH"]


def output_of(actions):
    return actions[0][1] if actions else ""  # the sampler schedules the output first


def reduction_funcs(actions):
    funcs = {a[1].split(".")[0] for a in actions if a[0] in ("SP", "RE", "AN") and ".u0" in a[1]}
    return sorted(f for f in funcs if f != output_of(actions) and not f.endswith("_rf"))


def outer_loop(actions):
    """The output's outermost loop (its parallel loop, or the same loop of a serial schedule) when other
    loops of the output's tiles run inside it, else "" (then it is the tile loop itself)."""
    output = output_of(actions)
    order = next((a[2] for a in actions if a[0] == "RE" and a[1] == output), [])
    splits = sum(1 for a in actions if a[0] == "SP" and a[1] == output)
    fused = [a[4] for a in actions if a[0] == "FU" and a[1] == output]
    outer_loops = len(order) - splits - len(fused)  # each split adds an inner loop, each fuse removes one
    if outer_loops <= 1:
        return ""
    return fused[-1] if fused else order[-1]


def placement(actions, funcs):
    if not funcs:
        return "none"
    outer = outer_loop(actions)
    kinds = set()
    for f in funcs:
        kind = "inlined"
        for a in actions:
            if a[0] == "CR" and a[1] == f:
                kind = "root"
            if a[0] == "CA" and a[1] == f:
                kind = "parallel loop" if a[3] == outer else "tile"
        kinds.add(kind)
    return "+".join(sorted(kinds))


def main(argv):
    if len(argv) not in (4, 5) or argv[1] not in ("pack", "reduction"):
        sys.exit("placement: usage: placement.py pack|reduction DB SINCE [SOURCE]")
    funcs_of = packed_funcs if argv[1] == "pack" else reduction_funcs
    db, since = argv[2], argv[3]
    source = argv[4] if len(argv) == 5 else ""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = con.execute("select spec, actions, gflops, source from records where created_at >= ?", (since,)).fetchall()
    except sqlite3.Error as e:
        sys.exit(f"placement: {db}: {e}")
    by_spec = collections.defaultdict(list)
    for spec, actions, gflops, src in rows:
        if gflops > 0 and source in src:
            a = json.loads(actions)
            by_spec[spec].append((placement(a, funcs_of(a)), gflops))
    groups, wins, workloads = collections.defaultdict(list), collections.Counter(), 0
    per_workload = {}
    for spec, records in sorted(by_spec.items()):
        if all(p == "none" for p, _ in records):
            continue
        workloads += 1
        per_workload[spec] = collections.defaultdict(float)
        for p, g in records:
            per_workload[spec][p] = max(per_workload[spec][p], g)
        best = max(g for _, g in records)
        wins[max(records, key=lambda r: r[1])[0]] += 1
        for p, g in records:
            groups[p].append(g / best)
    print(f"{workloads} workloads with such Funcs, {sum(len(v) for v in groups.values())} records")
    print("| placement | records | median of best | geomean of best | workloads where best |")
    print("|---|---:|---:|---:|---:|")
    for kind, ratios in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"| {kind} | {len(ratios)} | {statistics.median(ratios):.3f} | {geomean:.3f} | {wins[kind]} |")
    kinds = sorted(groups, key=lambda k: -len(groups[k]))
    print("\nBest GFLOP/s per workload and placement:\n")
    print("| workload | " + " | ".join(kinds) + " |")
    print("|---|" + "---:|" * len(kinds))
    for spec, best in per_workload.items():
        print(f"| `{spec}` | " + " | ".join(f"{best[k]:.1f}" if k in best else "–" for k in kinds) + " |")


if __name__ == "__main__":
    main(sys.argv)
