#!/usr/bin/env bash
# World model v2.1: the v2 bundle's encoder, its tokenizer grown for search space v2's actions, the
# transition and rankers trained again on the EPYC's records plus this Xeon's (train split; v1 and v2
# space) and the Xeon's val/test file (val for epoch choice only). Resumable: run it again.
set -euo pipefail
cd /work/main
out=${OUT:-/work/wm2}
if [ ! -f $out/encoder.pt ]; then
  mkdir -p $out/cache
  cp /work/wm1/config.json /work/wm1/tokenizer.json /work/wm1/encoder.pt $out/
  sqlite3 /work/wm1/cache/texts.db ".backup $out/cache/texts.db"
  cp /work/wm1/cache/states.bin /work/wm1/cache/states.keys $out/cache/
fi
data="--dataset data/dataset.jsonl.gz --dataset data/dataset-xeon-train.jsonl.gz --dataset data/dataset-xeon.jsonl.gz"
for stage in texts tokenizer encode transition ranker; do
  ./build/worldtune train $data --out $out --stage $stage
done
