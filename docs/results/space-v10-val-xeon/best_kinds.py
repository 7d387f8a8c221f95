# Per P10 run (scripts/val_search_knobs.sh records dbs P10<seed>.db): its best within 64 records, whether it is
# Winograd (WG tile, 0: direct) and the dim its output vectorizes. Usage: python3 best_kinds.py RUNS_DIR SEEDS...
import json, sqlite3, sys, collections
counts = collections.Counter(); rows = []
for seed in sys.argv[2:]:
    db = sqlite3.connect(f"{sys.argv[1]}/P10{seed}.db")
    specs = [r[0] for r in db.execute("select distinct spec from records")]
    for spec in specs:
        recs = db.execute("select actions, latency_median_s from records where spec=? and error_kind in ('','ok','none') order by id limit 64", (spec,)).fetchall()
        recs = [r for r in recs if r[1] > 0]
        acts, lat = min(recs, key=lambda r: r[1])
        a = json.loads(acts)
        wg = next((x[2] for x in a if x[0] == "WG"), 0)
        vec = next((x[2][0] for x in a if x[0] == "AN" and x[1] == "out" and x[3] == "vectorize"), "-")
        counts[(wg, vec if wg else "direct")] += 1
        rows.append((seed, spec.split(",bias")[0], wg, vec, round(lat * 1e6)))
for r in rows: print(*r)
print(dict(counts))
