#!/usr/bin/env bash
# GSLB at the topology limits, with its events persisted, and the DNS responder's rate.
# Prints the figures; docs/PERFORMANCE.md keeps them.
#   1. The engine alone: 32 parents + 1024 children, 24 h, 100 seeded faults, and the time of
#      one adoption decision (`cargo run --release -p engine --example gslb_bench`).
#   2. The same topology and faults through `switchyard simulate --database-url` (engines +
#      batched SQLite writes): wall time and peak RSS from /usr/bin/time.
#   3. The ADNS responder of `switchyard serve` (demo estate, clock running at 600x) loaded
#      with the adns load client over UDP on loopback for 5 s.
# Usage: bench/gslb.sh   (after `make build`)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/target/release/switchyard
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cargo run --quiet --release -p engine --example gslb_bench

python3 - "$work/topology.toml" <<'PY'
import random, sys
rnd = random.Random(11)
P, C = 32, 1024
out = ['[scenario]', 'name = "GSLB scale: 32 parents + 1024 children, 100 faults"', 'seed = 11', '',
       '[clock]', 'start_speed = "paused"', '']
parents = [f"P{i:02}" for i in range(P)]
for i, p in enumerate(parents):
    backups = [parents[(i + k) % P] for k in range(1, 6)]
    out += ['[[gslb.sites]]', f'name = "{p}"', f'ip = "10.{i}.0.1"', 'role = "parent"',
            'backup_parents = [' + ", ".join(f'"{b}"' for b in backups) + ']', '']
for c in range(C):
    p = c % P
    out += ['[[gslb.sites]]', f'name = "C{c:04}"', f'ip = "10.{p}.{1 + c // P}.1"', 'role = "child"',
            f'parent = "{parents[p]}"', '']
out += ['[[gslb.domains]]', 'name = "apps.example.com"', 'method = "least_connections"', '']
# 100 faults over 24 h, each repaired 1 to 30 minutes later.
for n in range(100):
    at = rnd.randrange(60, 24 * 3600 - 1900)
    back = at + rnd.randrange(60, 1800)
    if rnd.random() < 0.4:
        site = rnd.choice(parents) if rnd.random() < 0.5 else f"C{rnd.randrange(C):04}"
        out += ['[[actions]]', f'at = "{at}s"', 'kind = "site_down"', f'site = "{site}"', '']
        out += ['[[actions]]', f'at = "{back}s"', 'kind = "site_up"', f'site = "{site}"', '']
    else:
        a, b = rnd.sample(parents, 2)
        if rnd.random() < 0.5:
            c = rnd.randrange(C)
            a, b = parents[c % P], f"C{c:04}"
        one_way = "true" if rnd.random() < 0.3 else "false"
        out += ['[[actions]]', f'at = "{at}s"', 'kind = "mep_cut"', f'from = "{a}"', f'to = "{b}"', f'one_way = {one_way}', '']
        out += ['[[actions]]', f'at = "{back}s"', 'kind = "mep_restore"', f'from = "{a}"', f'to = "{b}"', f'one_way = {one_way}', '']
open(sys.argv[1], "w").write("\n".join(out))
PY

command -v /usr/bin/time > /dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
/usr/bin/time -f "%e %M" -o "$work/time" "$bin" simulate --scenario "$work/topology.toml" --until 24h \
  --database-url "sqlite://$work/sim.db" --quiet
read -r wall rss_kb < "$work/time"
awk -v w="$wall" -v r="$rss_kb" 'BEGIN {
  printf "gslb 32 parents + 1024 children, 24 h simulated, 100 faults, events persisted: %.2f s wall, %.0f MiB peak RSS\n", w, r / 1024 }'
bench/scripts/flap-overhead.sh "gslb 32 parents + 1024 children, 24 h simulated" "$work/topology.toml" 24h
python3 - "$work/sim.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
total = db.execute("SELECT count(*) FROM events WHERE engine = 'gslb'").fetchone()[0]
print(f"gslb events persisted: {total}")
for kind, n in db.execute("SELECT kind, count(*) FROM events WHERE engine = 'gslb' GROUP BY kind ORDER BY 2 DESC"):
    print(f"  {kind}: {n}")
PY

# The responder of a running console.
dns_port=$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
http_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" serve --addr "127.0.0.1:$http_port" --dns-addr "127.0.0.1:$dns_port" \
  --database-url "sqlite://$work/serve.db" --speed 600x --log warn > "$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q "ADNS responder" "$work/serve.log" 2>/dev/null && break
  sleep 0.1
done
cargo run --quiet --release -p adns --example dns_load -- --server "127.0.0.1:$dns_port" \
  --name apps.example.com --seconds 5 --concurrency 64
