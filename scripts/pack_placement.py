#!/usr/bin/env python3
"""Where a packed input is best computed, read from measured records (no measuring).

Usage: python3 scripts/pack_placement.py DB SINCE [SOURCE]
  DB      a records database (worldtune records import --db DB FILE.jsonl)
  SINCE   only records created at or after this ISO time (e.g. 2026-12-02T05:50)
  SOURCE  only records whose source contains this text (e.g. random: unbiased samples)

For every workload where some record packs an input (a CH action), each record's GFLOP/s is divided by
the workload's best; the records are grouped by where the wrapper is computed: not packed, at the root
(CR), at the output's parallel loop (CA at a loop annotated parallel), or at another loop (per tile).
Prints a markdown table: records, median and geometric mean of the ratio, workloads each group wins.
"""
import collections, json, math, sqlite3, statistics, sys


def placement(actions):
    wrappers = [a[1] + "_in_" + a[2] if a[2] else a[1] + "_in" for a in actions if a[0] == "CH"]
    if not wrappers:
        return "not packed"
    parallel = {a[2] for a in actions if a[0] == "AN" and a[3] == "parallel"}
    kinds = set()
    for w in wrappers:
        kind = "?"
        for a in actions:
            if a[0] == "CR" and a[1] == w:
                kind = "root"
            if a[0] == "CA" and a[1] == w:
                kind = "parallel loop" if a[3] in parallel else "tile"
        kinds.add(kind)
    return "+".join(sorted(kinds))


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit("pack_placement: usage: pack_placement.py DB SINCE [SOURCE]")
    db, since = argv[1], argv[2]
    source = argv[3] if len(argv) == 4 else ""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = con.execute("select spec, actions, gflops, source from records where created_at >= ?", (since,)).fetchall()
    except sqlite3.Error as e:
        sys.exit(f"pack_placement: {db}: {e}")
    by_spec = collections.defaultdict(list)
    for spec, actions, gflops, src in rows:
        if gflops > 0 and source in src:
            by_spec[spec].append((json.loads(actions), gflops))
    groups, wins, workloads = collections.defaultdict(list), collections.Counter(), 0
    for records in by_spec.values():
        if all(placement(a) == "not packed" for a, _ in records):
            continue
        workloads += 1
        best = max(g for _, g in records)
        wins[placement(max(records, key=lambda r: r[1])[0])] += 1
        for a, g in records:
            groups[placement(a)].append(g / best)
    print(f"{workloads} workloads with packed records, {sum(len(v) for v in groups.values())} records")
    print("| placement | records | median of best | geomean of best | workloads where best |")
    print("|---|---:|---:|---:|---:|")
    for kind, ratios in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"| {kind} | {len(ratios)} | {statistics.median(ratios):.3f} | {geomean:.3f} | {wins[kind]} |")


if __name__ == "__main__":
    main(sys.argv)
