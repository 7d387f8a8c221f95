#!/bin/bash
# A network tuning on a farm of two measurer ranks (1 Halide thread each), one subgraph at a time
# (--searches 1) against the default concurrent subgraphs, taking turns ROUNDS times, each on a fresh
# database; prints rank 0's idle line per run. Nothing else may run meanwhile. From the repository root:
#   [ROUNDS=3] [MODEL=world] bash docs/results/farm-scale/network.sh [OUT_DIR]
set -euo pipefail
OUT=${1:-/tmp/farm-network}; ROUNDS=${ROUNDS:-3}; MODEL=${MODEL:-world}; WT=${WORLDTUNE:-build/worldtune}
mkdir -p "$OUT"
echo "searches round results span_seconds idle_share wall_seconds" > "$OUT/network.txt"
for round in $(seq 1 "$ROUNDS"); do
  for searches in 1 0; do
    db="$OUT/net-$searches-$round.db"; rm -f "$db"*
    start=$(date +%s.%N)
    mpirun --allow-run-as-root --oversubscribe --enable-recovery -np 3 "$WT" tune --network bert_base --model "$MODEL" \
      --trials 96 --threads 1 --quiet --searches "$searches" --db "$db" > "$OUT/net-$searches-$round.log" 2>&1
    end=$(date +%s.%N)
    line=$(grep 'farm group 0:' "$OUT/net-$searches-$round.log")
    python3 -c "import re,sys; m=re.search(r'(\d+) results in ([0-9.]+) s; \d+ measurers idle ([0-9.]+)%', sys.argv[1]); print('$searches $round', m.group(1), m.group(2), m.group(3) + '%', round(float(sys.argv[3]) - float(sys.argv[2]), 1))" "$line" "$start" "$end" | tee -a "$OUT/network.txt"
  done
done
