#!/usr/bin/env bash
# The probe that motivated v7: issue 22's 1x1 stride-2 convolution, its best schedule of the v6 run
# (docs/results/issue22-v6-zen5/records.jsonl.gz) as found and with the view `sub` computed at the root (in
# parallel over channels), ROUNDS interleaved rounds of `worldtune measure` in fresh processes, 10 repeats
# each, 2 threads. Measures: a quiet machine, about 1 min.
# Usage, from the repository root: [ROUNDS=8] bash docs/results/space-v7-val-zen5/view_probe.sh > view_probe.txt
set -euo pipefail
WT=${WORLDTUNE:-build/worldtune}; rounds=${ROUNDS:-8}
spec='conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1'
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$spec" "$tmp" <<'PY'
import gzip, json, sys
spec, tmp = sys.argv[1], sys.argv[2]
records = [json.loads(l) for l in gzip.open('docs/results/issue22-v6-zen5/records.jsonl.gz', 'rt')]
best = min((r for r in records if r['spec'] == spec and r['error_kind'] == 'none' and r['latency_median_s'] > 0),
           key=lambda r: r['latency_median_s'])
json.dump(best['actions'], open(f'{tmp}/inlined.json', 'w'))
json.dump(best['actions'] + [['CR', 'sub'], ['AN', 'sub', 'c', 'parallel']], open(f'{tmp}/computed.json', 'w'))
PY
echo "round inlined_gflops computed_gflops"
for r in $(seq "$rounds"); do
  line="$r"
  for v in inlined computed; do
    g=$("$WT" measure "$spec" --actions "$tmp/$v.json" --no-store --db "$tmp/x.db" --repeats 10 --threads 2 2>&1 | awk '/GFLOP/ {print $2}')
    line="$line ${g:-error}"
  done
  echo "$line"
done
