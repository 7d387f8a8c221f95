#!/usr/bin/env python3
"""Writes one split of a dataset file as records JSON Lines, for `worldtune records import` and then
`worldtune replay`, so cost models can be replayed on held-out workloads without measuring anything.

Each workload's trajectories, in file order, are cut into runs of RUN records (record source "runK"),
which replay uses as tuning-run prefixes.

    python3 scripts/dataset_to_records.py data/dataset.jsonl.gz val val.jsonl [--run 64]
    build/worldtune records import --db val.db val.jsonl
    build/worldtune replay --db val.db --models world,static --runs 3 --after 0,16,48 --pool 200
"""
import argparse
import gzip
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('dataset')
    ap.add_argument('split', choices=['train', 'val', 'test'])
    ap.add_argument('out')
    ap.add_argument('--run', type=int, default=64, help='records per run (default 64)')
    a = ap.parse_args()
    if a.run < 1:
        sys.exit('dataset_to_records: --run must be positive')
    try:
        f = gzip.open(a.dataset, 'rt')
        header = json.loads(next(f))
    except (OSError, StopIteration, ValueError) as e:
        sys.exit(f'dataset_to_records: cannot read {a.dataset}: {e}')
    if header.get('format') != 'worldtune-dataset':
        sys.exit(f'dataset_to_records: {a.dataset} is not a worldtune dataset file')
    written = 0
    with open(a.out, 'w') as out:
        for line in f:
            workload = json.loads(line)
            if workload['split'] != a.split:
                continue
            for i, t in enumerate(workload['trajectories']):
                out.write(json.dumps({
                    'format': 1, 'spec': workload['spec'], 'actions': t['actions'],
                    'latency_median_s': t.get('latency_s') or 0.0, 'latency_min_s': t.get('min_s') or 0.0,
                    'latency_stddev_s': t.get('stddev_s') or 0.0, 'gflops': t.get('gflops') or 0.0,
                    'error_kind': t['error'], 'hardware': header.get('hardware', {}),
                    'source': f'run{i // a.run}',
                    'created_at': f"{header.get('created_at', '')}#{written}"}) + '\n')
                written += 1
    print(f'{written} records of the {a.split} split written to {a.out}')


if __name__ == '__main__':
    main()
