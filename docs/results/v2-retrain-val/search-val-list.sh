#!/bin/bash
# Val-split search comparison (2026-12-02, before the move): the then-shipped bundle (models/world, now
# models/world-v2-epyc) vs the retrained one (models/world-next, now models/world), its no-transition
# ablation, and static. /work/s30/val.db started as a copy of the 4-workload runs' database.
cd /work/main
SEEDS=${SEEDS:-2}
./build/worldtune compare $(grep -v '^#' docs/val_workloads.txt) \
  --models world@models/world,world@models/world-next,world-initial@models/world-next,static \
  --trials 64 --seeds $SEEDS --rounds 2 --peers none --threads 2 \
  --db /work/s30/val.db --out /work/s30/val-compare-${SEEDS}seeds.md
echo rc=$?
