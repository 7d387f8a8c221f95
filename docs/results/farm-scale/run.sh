#!/bin/bash
# Trials per hour of a collection with 0, 1 and 2 measurer ranks on one machine, 1 Halide thread each,
# side by side: the configurations take turns, ROUNDS times, each on a fresh database. Nothing else may
# run meanwhile. From the repository root:
#   [MODEL=random|static] [CONFIGS="single np2 np3"] [ROUNDS=3] bash docs/results/farm-scale/run.sh [OUT_DIR]
#   single  worldtune dataset collect ...                 (no mpirun: rank 0 measures in its own worker)
#   np2     mpirun -np 2 worldtune dataset collect ...     (one measurer rank)
#   np3     mpirun -np 3 worldtune dataset collect ...     (two measurer ranks; rank 0 searches as many
#                                                          workloads at once as keep them busy)
#   np3-one as np3 with --searches 1                       (one search at a time: measurers wait for it)
# Each line of runs.txt ends with the measurers' idle share that rank 0 reports (- without a farm).
set -euo pipefail
OUT=${1:-/tmp/farm-scale}; ROUNDS=${ROUNDS:-3}; WT=${WORLDTUNE:-build/worldtune}
MODEL=${MODEL:-random}; CONFIGS=${CONFIGS:-single np2 np3}
mkdir -p "$OUT"
LIST="$OUT/list.txt"
printf '%s\n' 'matmul:M=249,N=929,K=96' 'pool2d:N=1,C=157,H=96,W=96,R=7,S=7,stride=2,pad=3' \
  'conv2d:N=1,C=64,H=56,W=56,K=64,R=1,S=1,bias=1,act=relu' 'softmax:M=1536,N=128' > "$LIST"
ARGS=(dataset collect --list "$LIST" --models "$MODEL" --trials 32 --pass-trials 32 --threads 1)
MPI=(mpirun --allow-run-as-root --oversubscribe --enable-recovery)
echo "config round candidates seconds trials_per_hour idle_share" > "$OUT/runs.txt"
for round in $(seq 1 "$ROUNDS"); do
  for config in $CONFIGS; do
    db="$OUT/$config-$round.db"; rm -f "$db"*
    case $config in
      single) cmd=("$WT" "${ARGS[@]}" --db "$db") ;;
      np2) cmd=("${MPI[@]}" -np 2 "$WT" "${ARGS[@]}" --db "$db") ;;
      np3) cmd=("${MPI[@]}" -np 3 "$WT" "${ARGS[@]}" --db "$db") ;;
      np3-one) cmd=("${MPI[@]}" -np 3 "$WT" "${ARGS[@]}" --searches 1 --db "$db") ;;
      *) echo "run.sh: unknown configuration '$config'" >&2; exit 2 ;;
    esac
    start=$(date +%s.%N)
    "${cmd[@]}" > "$OUT/$config-$round.log" 2>&1
    end=$(date +%s.%N)
    n=$(sqlite3 "$db" "select count(*) from records")
    idle=$(sed -n 's/.*measurers idle \([0-9.]*\)%.*/\1%/p' "$OUT/$config-$round.log" | tail -1)
    python3 -c "import sys; n,s=int(sys.argv[1]),float(sys.argv[3])-float(sys.argv[2]); print('$config $round', n, round(s,1), round(3600*n/s), sys.argv[4])" "$n" "$start" "$end" "${idle:--}" | tee -a "$OUT/runs.txt"
  done
done
python3 - "$OUT/runs.txt" $CONFIGS <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
configs = sys.argv[2:]
by, idle = {}, {}
for c, r, n, s, tph, share in rows:
    by.setdefault(c, []).append(float(tph))
    idle.setdefault(c, []).append(share)
base = statistics.median(by[configs[0]])
print(f'| configuration | trials per hour (each round) | median | over {configs[0]} | measurers idle (each round) |')
print('|---|---|---:|---:|---|')
for c in configs:
    m = statistics.median(by[c])
    print(f"| {c} | {', '.join(str(int(x)) for x in by[c])} | {int(m)} | {m / base:.2f}x | {', '.join(idle[c])} |")
PY
