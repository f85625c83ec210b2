#!/usr/bin/env bash
# The LHC engine at scale, with its events persisted, and the resource-location pages' render
# time. Prints the figures; docs/PERFORMANCE.md keeps them.
#   1. 100 resource locations × 3 Cloud Connectors × 10,000 VDAs (1 M VDAs), 24 simulated
#      hours, outage forced on every RL from 6 h to 8 h: `switchyard simulate --database-url`
#      (engines + batched SQLite writes), wall time and peak RSS from /usr/bin/time.
#   2. `switchyard serve` on the same estate (paused): server-side render time of /lhc
#      (100 RLs) and /lhc/rl-000 (10,000 VDAs), median of BENCH_RENDERS requests.
# Usage: bench/lhc.sh   (after `make build`; loopback only, stops by itself)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/target/release/switchyard
renders=${BENCH_RENDERS:-20}
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

cp bench/scenarios/lhc-1m.toml "$work/estate.toml"

command -v /usr/bin/time > /dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
/usr/bin/time -f "%e %M" -o "$work/time" "$bin" simulate --scenario "$work/estate.toml" --until 24h \
  --database-url "sqlite://$work/sim.db" > "$work/events.jsonl"
read -r wall rss_kb < "$work/time"
events=$(wc -l < "$work/events.jsonl")
awk -v w="$wall" -v r="$rss_kb" -v e="$events" 'BEGIN {
  printf "lhc 1M VDAs, 24 h simulated, events persisted: %.2f s wall, %.0f MiB peak RSS, %d events\n", w, r / 1024, e }'
bench/scripts/flap-overhead.sh "lhc 1M VDAs, 24 h simulated" "$work/estate.toml" 24h

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
db="sqlite://$work/serve.db"
echo "bench-password" | "$bin" user add --username bench --role viewer --database-url "$db" > /dev/null
"$bin" serve --addr "127.0.0.1:$port" --database-url "$db" --scenario "$work/estate.toml" \
  --speed paused --log warn > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done
curl -sf -c "$work/cookies" -H 'Accept: application/json' \
  -d 'username=bench&password=bench-password' "http://127.0.0.1:$port/api/login" > /dev/null
median() {
  for _ in $(seq "$renders"); do
    curl -sf -b "$work/cookies" -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port$1"
  done | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] * 1000 }'
}
echo "render /lhc (100 RLs): $(median /lhc) ms median of $renders"
echo "render /lhc/rl-000 (10,000 VDAs): $(median /lhc/rl-000) ms median of $renders"
