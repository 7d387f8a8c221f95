# Sourced by this folder's and docs/results/v2-dagger-zen5-r2's train.sh, with $work set: $base, the
# shipped bundle's five dataset files before the Zen 5 picks, and $round1, round 1's picks file as of
# commit 00b47aa (data/dataset-dagger-zen5.jsonl.gz now holds both rounds), extracted into $work once.
base="data/dataset.jsonl.gz data/dataset-xeon-train.jsonl.gz data/dataset-xeon.jsonl.gz data/dataset-dagger-epyc.jsonl.gz"
base="$base data/dataset-zen5-train.jsonl.gz"
round1="$work/dataset-dagger-zen5-round1.jsonl.gz"
[ -f "$round1" ] || git show 00b47aa:data/dataset-dagger-zen5.jsonl.gz > "$round1"
