# Sourced by the replay scripts of docs/results (`source .../scripts/replay_prelude.sh WORKDIR`): sets
# `repo`, enters WORKDIR with the records databases of the 36 round-2 val runs
# (docs/results/v2-dagger/round2/E1-3.jsonl.gz as E1.db, E2.db, E3.db, kept when there) for `worldtune
# replay`, and defines `bundle DIR JSON`, a config-only variant of the shipped bundle
# (scripts/config_bundle.sh).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:?give a work folder}
mkdir -p "$work" && cd "$work"
for n in 1 2 3; do
  [ -f "E$n.db" ] && continue
  gunzip -c "$repo/docs/results/v2-dagger/round2/E$n.jsonl.gz" > "E$n.jsonl"
  "$repo/build/worldtune" records import --db "E$n.db" "E$n.jsonl" > /dev/null
done
bundle() { bash "$repo/scripts/config_bundle.sh" "$1" "$2"; }
