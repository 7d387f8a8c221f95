#!/usr/bin/env python3
"""How lucky is a run's best? Re-measures the K fastest schedules (by their tuning-time median) of every
workload in the given record databases, each in a fresh `worldtune measure` process, ROUNDS times in a
shuffled order per round, and reports per run: the tuning-time best, its re-measured median, and the
fastest re-measured median among the K (what confirming the top K at the end of a run would return).

A measurement: nothing else may run. Resumable: every measurement is appended to OUT.jsonl as it is taken
and skipped when the command is run again. The report goes to stdout.

Usage: python3 scripts/confirm_bests.py OUT.jsonl DB... [--top K] [--rounds R] [--worldtune build/worldtune]
"""
import argparse
import json
import math
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile


def fail(message):
    print(f"confirm_bests: {message}", file=sys.stderr)
    sys.exit(2)


def top_records(db, k):
    """{spec: [(record id, tuning-time median s, actions JSON), ...] fastest first} of successful records."""
    if not os.path.isfile(db):
        fail(f"no database {db}")
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = con.execute("SELECT id, spec, latency_median_s, actions FROM records "
                           "WHERE error_kind = 'none' AND latency_median_s > 0 ORDER BY spec, latency_median_s").fetchall()
    except sqlite3.Error as e:
        fail(f"{db}: {e}")
    out = {}
    for rid, spec, median, actions in rows:
        if len(out.setdefault(spec, [])) < k:
            out[spec].append((rid, median, actions))
    return out


def measure(worldtune, spec, actions):
    """Median latency (s) of one fresh measurement, or None when it failed."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(actions)
        path = f.name
    try:
        r = subprocess.run([worldtune, "measure", spec, "--actions", path, "--no-store", "--threads", "2"],
                           capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(path)
    m = re.search(r"median\s+([0-9.]+)\s*(us|ms|s)\b", r.stdout)
    if m:
        return float(m.group(1)) * {"s": 1, "ms": 1e-3, "us": 1e-6}[m.group(2)]
    return None


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("dbs", nargs="+")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--worldtune", default="build/worldtune")
    a = ap.parse_args()
    if a.top < 1 or a.rounds < 1:
        fail("--top and --rounds must be positive")
    if not os.access(a.worldtune, os.X_OK):
        fail(f"no worldtune binary at {a.worldtune}")
    runs = {db: top_records(db, a.top) for db in a.dbs}
    done = {}
    if os.path.exists(a.out):
        with open(a.out) as f:
            for line in f:
                try:
                    m = json.loads(line)
                    done[(m["db"], m["record"], m["round"])] = m["median_s"]
                except (ValueError, KeyError):
                    continue  # a line cut by a kill: measured again
    rng = random.Random(1)
    with open(a.out, "a") as out:
        for rnd in range(a.rounds):
            items = [(db, spec, rec) for db, specs in runs.items() for spec, recs in specs.items() for rec in recs]
            rng.shuffle(items)
            for db, spec, (rid, _, actions) in items:
                if (db, rid, rnd) in done:
                    continue
                median = measure(a.worldtune, spec, actions)
                done[(db, rid, rnd)] = median
                out.write(json.dumps({"db": db, "spec": spec, "record": rid, "round": rnd, "median_s": median}) + "\n")
                out.flush()
    print(f"| run | workload | tuning-time best (ms) | its re-measured median (ms) | fastest re-measured of top {a.top} (ms) |")
    print("|---|---|---:|---:|---:|")
    optimism, confirm_gain = [], []
    for db, specs in runs.items():
        for spec, recs in specs.items():
            remeasured = []
            for rid, _, _ in recs:
                values = sorted(v for (d, r, _), v in done.items() if d == db and r == rid and v)
                remeasured.append(values[len(values) // 2] if values else None)
            if remeasured[0] is None or not any(remeasured):
                continue
            best_k = min(v for v in remeasured if v)
            optimism.append(remeasured[0] / recs[0][1])
            confirm_gain.append(remeasured[0] / best_k)
            print(f"| {os.path.basename(db)} | `{spec}` | {recs[0][1] * 1e3:.3f} | {remeasured[0] * 1e3:.3f} | {best_k * 1e3:.3f} |")
    print()
    if a.rounds >= 2:
        # The fastest of the K by re-measurement is itself a lucky pick: choose it on every round but the
        # last and read the gain on the last round alone.
        held_out = []
        for db, specs in runs.items():
            for spec, recs in specs.items():
                def rounds_of(rid):
                    return [done.get((db, rid, r)) for r in range(a.rounds)]
                usable = [rid for rid, _, _ in recs if all(rounds_of(rid))]
                if recs[0][0] not in usable:
                    continue
                pick = min(usable, key=lambda rid: sum(rounds_of(rid)[:-1]))
                held_out.append(rounds_of(recs[0][0])[-1] / rounds_of(pick)[-1])
        print(f"Held out: the top {a.top}'s fastest chosen on rounds 1-{a.rounds - 1}, read on round {a.rounds}: "
              f"top-1 over it {geomean(held_out):.3f} over {len(held_out)} runs.")
    print(f"{len(optimism)} runs. Geometric means: re-measured over tuning-time best {geomean(optimism):.3f}; "
          f"top-1 re-measured over the fastest re-measured of the top {a.top} {geomean(confirm_gain):.3f}; "
          f"runs where another of the top {a.top} re-measures faster: {sum(g > 1 for g in confirm_gain)}.")


if __name__ == "__main__":
    main()
