#!/usr/bin/env bash
# Measures the two paths events take, on the demo scenario, and prints the figures:
#  1. `switchyard simulate` (engines only, JSON lines to a file): simulated days per second.
#  2. `switchyard serve --speed max` for BENCH_SECONDS (engines + batched SQLite persistence):
#     events persisted per second, read from /metrics.
# Usage: bench/runtime.sh   (after `make build`; loopback only, stops by itself)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/switchyard
seconds=${BENCH_SECONDS:-10}
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

start=$(date +%s.%N)
"$bin" simulate --scenario scenarios/demo.toml --seed 1 --until 30d > "$work/events.jsonl"
end=$(date +%s.%N)
lines=$(wc -l < "$work/events.jsonl")
awk -v l="$lines" -v s="$start" -v e="$end" 'BEGIN {
  t = e - s; printf "simulate: 30 simulated days, %d events in %.2f s wall (%.0f events/s)\n", l, t, l / t }'

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "bench-password" | "$bin" user add --username bench --role admin \
  --database-url "sqlite://$work/bench.db" > /dev/null
"$bin" serve --addr "127.0.0.1:$port" --database-url "sqlite://$work/bench.db" \
  --speed max --log warn > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done
metric() { curl -sf "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
e0=$(metric switchyard_events_persisted_total); e0=${e0:-0}
t0=$(metric switchyard_sim_time_ms); t0=${t0:-0}
sleep "$seconds"
e1=$(metric switchyard_events_persisted_total)
t1=$(metric switchyard_sim_time_ms)
awk -v a="$e0" -v b="$e1" -v ta="$t0" -v tb="$t1" -v s="$seconds" 'BEGIN {
  printf "serve --speed max: %.0f events persisted/s, %.1f simulated hours per wall second\n",
    (b - a) / s, (tb - ta) / 3600000 / s }'
