#!/usr/bin/env python3
"""How often the world model measured register-fill samples in this A/B, and how fast they were. No measuring.
  python3 docs/results/register-fill-window-zen5/fill_share.py DIR [SAMPLES]
DIR holds the runs' records as <config><seed>.jsonl.gz (this folder) or <config><seed>.db (a work folder's
runs/). For each workload whose v6 samples differ from v4's (SPECS), per config: records measured, those with
the rule's reduction signature (every window loop split by its whole extent, the long reduction by a block of
at most 4), the best latency among them and the best overall (tuning-time medians, us). With SAMPLES, also the
share of `worldtune sample --space v6` draws with that signature (the sampler's own rate, model-free)."""
import collections
import gzip
import json
import os
import sqlite3
import subprocess
import sys

SPECS = ["conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu"]
FILL_BLOCK = 4  # SamplerParams::fill_reduction_block


def window_extents(spec):
    fields = dict(kv.split("=") for kv in spec.split(":", 1)[1].split(","))
    return {"r$x": int(fields["S"]), "r$y": int(fields["R"])}


def filled(spec, actions):
    splits = {a[2]: a[3] for a in actions if a[0] == "SP" and a[1] == "acc.u0" and a[2].startswith("r$")}
    window = window_extents(spec)
    return (all(splits.get(d) == [e] for d, e in window.items())
            and "r$z" in splits and splits["r$z"][-1] <= FILL_BLOCK)


def runs(folder):
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".jsonl.gz"):
            with gzip.open(path, "rt") as f:
                rows = [json.loads(line) for line in f]
            yield name[:-len(".jsonl.gz")], [(r["spec"], r["actions"], r.get("latency_median_s", 0))
                                              for r in rows if r.get("error_kind") == "none"]
        elif name.endswith(".db"):
            db = sqlite3.connect(path)
            rows = db.execute("select spec, actions, latency_median_s from records where error_kind='none'").fetchall()
            yield name[:-len(".db")], [(s, json.loads(a), lat) for s, a, lat in rows]


def sampled_share(spec, count):
    out = subprocess.run(["build/worldtune", "sample", spec, "--count", str(count), "--seed", "7", "--space", "v6"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return sum(filled(spec, json.loads(line)) for line in out), len(out)


def main():
    if len(sys.argv) not in (2, 3) or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: fill_share.py DIR [SAMPLES]")
    table = collections.defaultdict(list)
    for run, rows in runs(sys.argv[1]):
        for spec in SPECS:
            mine = [(filled(spec, a), lat) for s, a, lat in rows if s == spec]
            if not mine:
                continue
            fills = [lat for f, lat in mine if f]
            best_fill = f"{min(fills) * 1e6:.0f}" if fills else "-"
            table[spec].append(f"| {run} | {len(mine)} | {len(fills)} | {best_fill} | {min(l for _, l in mine) * 1e6:.0f} |")
    for spec, lines in table.items():
        print(f"{spec}\n\n| run | measured | register-fill | best of those (us) | best (us) |\n|---|---:|---:|---:|---:|")
        print("\n".join(lines))
        if len(sys.argv) == 3:
            hits, n = sampled_share(spec, int(sys.argv[2]))
            print(f"\n`worldtune sample --space v6`: {hits} of {n} draws have the signature.")


if __name__ == "__main__":
    main()
