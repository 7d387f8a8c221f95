#!/usr/bin/env python3
"""Are a tuning run's fastest schedules, as timed while tuning, the fastest ones? A measurement: run it on
a quiet machine. For every workload of a list and every records database (one tuning run each), the K
fastest schedules of the run's first N trials, by tuning-time median, are timed again in fresh processes
(`worldtune measure --no-store`, 2 threads), in R rounds, each round in a shuffled order. Writes one TSV
line per timing: db, spec, tuning rank (1 = the run's best), tuning-time seconds, round, re-timed seconds.
Usage: python3 topk.py OUT.tsv DB[,DB...] [--list docs/val_workloads.txt] [--trials 256] [--k 4] [--rounds 3]
"""
import argparse, json, os, random, re, sqlite3, subprocess, sys, tempfile

UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def read_list(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def fastest(db, spec, trials, k):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute("select actions, latency_median_s, error_kind from records where spec = ? order by id limit ?",
                       (spec, trials)).fetchall()
    con.close()
    ok = sorted((lat, act) for act, lat, err in rows if err == "none" and lat > 0)
    return ok[:k]


def retime(worldtune, spec, actions):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(actions)
        path = f.name
    try:
        out = subprocess.run([worldtune, "measure", spec, "--actions", path, "--no-store", "--threads", "2"],
                             capture_output=True, text=True, timeout=120).stdout
    finally:
        os.unlink(path)
    m = re.search(r"^latency\s+median\s+([0-9.]+)\s+(ns|us|ms|s)\b", out, re.M)
    if not m or not re.search(r"^check\s+passed", out, re.M):
        return None
    return float(m.group(1)) * UNITS[m.group(2)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("dbs")
    p.add_argument("--list", default="docs/val_workloads.txt")
    p.add_argument("--trials", type=int, default=256)
    p.add_argument("--k", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--worldtune", default="build/worldtune")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    jobs = []
    for db in a.dbs.split(","):
        if not os.path.exists(db):
            sys.exit(f"topk.py: no such database: {db}")
        for spec in read_list(a.list):
            for rank, (lat, act) in enumerate(fastest(db, spec, a.trials, a.k), 1):
                jobs.append((os.path.basename(db), spec, rank, lat, act))
    rng = random.Random(a.seed)
    with open(a.out, "w") as out:
        out.write("db\tspec\trank\ttuned_s\tround\tretimed_s\n")
        for r in range(1, a.rounds + 1):
            order = jobs[:]
            rng.shuffle(order)
            for db, spec, rank, lat, act in order:
                t = retime(a.worldtune, spec, act)
                out.write(f"{db}\t{spec}\t{rank}\t{lat:.9g}\t{r}\t{'' if t is None else f'{t:.9g}'}\n")
                out.flush()


if __name__ == "__main__":
    main()
