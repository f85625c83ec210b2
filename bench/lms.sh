#!/usr/bin/env bash
# Load management at scale, with its events persisted, and the placement benchmark.
# Prints the figures; docs/PERFORMANCE.md keeps them.
#   1. Placement over 10,000 servers: the indexed placer against a plain O(n) scan, in the
#      same run (`cargo run --release -p engine --example lms_placement`).
#   2. 100 zones × 100 servers, 24 simulated hours, a logon storm every hour (24 × 20,834 =
#      500,016 sessions): `switchyard simulate --database-url` (engines + batched SQLite
#      writes), wall time and peak RSS from /usr/bin/time.
# Usage: bench/lms.sh   (after `make build`)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/target/release/switchyard
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo run --quiet --release -p engine --example lms_placement

python3 - "$work/farm.toml" <<'PY'
import sys
apps = ["Word", "Excel", "Outlook", "SAP GUI", "Browser"]
out = ['[scenario]', 'name = "LMS scale: 100 zones x 100 servers, hourly storms"', 'seed = 7', '',
       '[clock]', 'start_speed = "paused"', '', '[lms]', '',
       '[lms.workload.recurring_storm]', 'every = "1h"', 'users = 20834', 'over = "10m"', '']
for a in apps:
    out += ['[[lms.applications]]', f'name = "{a}"', '']
for z in range(100):
    out += ['[[lms.zones]]', f'id = "z{z:03}"', f'name = "Zone {z:03}"', '']
for z in range(100):
    for s in range(100):
        ev = "Advanced" if s % 4 == 3 else "Default"
        out += ['[[lms.servers]]', f'host = "XA-{z:03}-{s:03}"', f'zone = "z{z:03}"',
                f'evaluator = "{ev}"', 'apps = [' + ", ".join(f'"{a}"' for a in apps) + ']', '']
open(sys.argv[1], "w").write("\n".join(out))
PY

command -v /usr/bin/time > /dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
/usr/bin/time -f "%e %M" -o "$work/time" "$bin" simulate --scenario "$work/farm.toml" --until 24h \
  --database-url "sqlite://$work/sim.db" --quiet
read -r wall rss_kb < "$work/time"
awk -v w="$wall" -v r="$rss_kb" 'BEGIN {
  printf "lms 100 zones x 100 servers, 24 h simulated, hourly storms, events persisted: %.2f s wall, %.0f MiB peak RSS\n", w, r / 1024 }'
bench/scripts/flap-overhead.sh "lms 100 zones x 100 servers, 24 h simulated" "$work/farm.toml" 24h
python3 - "$work/sim.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
total = db.execute("SELECT count(*) FROM events").fetchone()[0]
print(f"events persisted: {total}")
for kind, n in db.execute("SELECT kind, count(*) FROM events GROUP BY kind ORDER BY 2 DESC"):
    print(f"  {kind}: {n}")
PY
