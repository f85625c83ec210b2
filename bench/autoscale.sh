#!/usr/bin/env bash
# Autoscale at scale, with its events persisted, and the what-if figure.
# Prints the figures; docs/PERFORMANCE.md keeps them.
#   1. 50 groups × 3 availability zones (150 clusters: diurnal, constant, spike and random-walk
#      trace workloads; DNS and NLB; one, or two threshold parameters), 30 simulated days:
#      `switchyard simulate --database-url` (engines + batched SQLite writes), wall time and
#      peak RSS from /usr/bin/time, then the events persisted by kind.
#   2. The engine alone over the same shape, and the what-if of the last 24 hours of one group
#      (median of 21) — `cargo run --release -p engine --example autoscale_bench`.
# Usage: bench/autoscale.sh   (after `make build`; SWITCHYARD_BIN overrides the binary)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SWITCHYARD_BIN:-$PWD/target/release/switchyard}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/asg.toml" <<'PY'
import math, random, sys
rnd = random.Random(2024)
out = ['[scenario]', 'name = "Autoscale scale: 50 groups x 3 zones, 30 days"', 'seed = 7', '',
       '[clock]', 'start_speed = "paused"', '']
for i in range(50):
    out += ['[[autoscale.groups]]', f'name = "asg{i:02}"',
            f'mode = "{"dns" if i % 2 == 0 else "nlb"}"',
            'zones = ["1a", "1b", "1c"]', 'min_nodes = 2', 'max_nodes = 8',
            'watch_time_min = 3', 'cooldown_min = 10', 'drain_timeout_min = 10', 'ttl_s = 60',
            f'noise = {0 if i % 5 == 4 else 2}', '']
    if i % 3 == 0:
        limits = [("cpu", 25, 75)]
    elif i % 3 == 1:
        limits = [("memory", 40, 85)]
    else:
        limits = [("cpu", 25, 75), ("throughput", 100, 400)]
    for p, lo, hi in limits:
        out += ['[[autoscale.groups.thresholds]]', f'parameter = "{p}"', f'min = {lo}', f'max = {hi}', '']
    out += ['[autoscale.groups.workload]']
    kind = i % 5
    if kind in (0, 1):
        out += ['profile = "diurnal"', f'base = {rnd.uniform(40, 60):.1f}',
                f'amplitude = {rnd.uniform(20, 45):.1f}', 'period_min = 1440',
                f'peak_at_min = {rnd.randrange(1440)}']
    elif kind == 2:
        out += ['profile = "constant"', f'level = {rnd.uniform(30, 70):.1f}']
    elif kind == 3:
        out += ['profile = "spike"', f'base = {rnd.uniform(30, 50):.1f}',
                f'peak = {rnd.uniform(120, 200):.1f}', f'at_min = {rnd.randrange(20 * 1440)}',
                'duration_min = 120']
    else:
        v, values = 50.0, []
        for _ in range(1440):
            v = min(150.0, max(5.0, v + rnd.uniform(-3, 3)))
            values.append(f'{v:.1f}')
        out += ['profile = "trace"', 'values = [' + ", ".join(values) + ']']
    out.append('')
open(sys.argv[1], "w").write("\n".join(out))
PY

command -v /usr/bin/time > /dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
/usr/bin/time -f "%e %M" -o "$work/time" "$bin" simulate --scenario "$work/asg.toml" --until 30d \
  --database-url "sqlite://$work/sim.db" --quiet
read -r wall rss_kb < "$work/time"
awk -v w="$wall" -v r="$rss_kb" 'BEGIN {
  printf "autoscale 50 groups x 3 zones, 30 days simulated, events persisted: %.2f s wall, %.0f MiB peak RSS\n", w, r / 1024 }'
bench/scripts/flap-overhead.sh "autoscale 50 groups x 3 zones, 30 days simulated" "$work/asg.toml" 30d
python3 - "$work/sim.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
total = db.execute("SELECT count(*) FROM events").fetchone()[0]
print(f"events persisted: {total}")
for kind, n in db.execute("SELECT kind, count(*) FROM events GROUP BY kind ORDER BY 2 DESC"):
    print(f"  {kind}: {n}")
PY

if [ -f engine/examples/autoscale_bench.rs ]; then
  cargo run --quiet --release -p engine --example autoscale_bench
fi
