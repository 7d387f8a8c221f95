#!/usr/bin/env bash
# A config-only variant of the shipped bundle: copies models/world to DIR and sets the given keys of its
# config.json (the weights stay the shipped ones). Replays and val searches compare such variants.
# Usage: bash scripts/config_bundle.sh DIR '{"online_rounds": 100}'
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?give the variant folder}; keys=${2:?give the config keys as JSON}
rm -rf "$dir"; mkdir -p "$(dirname "$dir")"; cp -r "$repo/models/world" "$dir"
python3 -c 'import json,sys; p=sys.argv[1]+"/config.json"; c=json.load(open(p)); c.update(json.loads(sys.argv[2])); json.dump(c, open(p, "w"), indent=2, sort_keys=True)' "$dir" "$keys"
