#!/usr/bin/env bash
# Measures the two paths events take, on the demo scenario, and prints the figures:
#  1. `switchyard simulate` (engines only, JSON lines to a file): simulated days per second.
#  2. `switchyard serve --speed max` for BENCH_SECONDS (engines + journal + snapshots + batched
#     SQLite persistence): events persisted per second, read from /metrics.
#
# BENCH_BASELINE=<git revision> also builds that revision's server (in a temporary worktree,
# into target/baseline, kept between runs) and measures it in the same run of the script:
# the two binaries take turns BENCH_ROUNDS times (default 3) on fresh databases, and the
# medians and their ratio are printed. A figure from another day on a 2-core machine is no
# reference: the disk and the neighbours change it by ±20 %.
#
# Usage: bench/runtime.sh   (after `make build`; loopback only, stops by itself)
#        BENCH_BASELINE=0524292 bench/runtime.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/switchyard
seconds=${BENCH_SECONDS:-10}
rounds=${BENCH_ROUNDS:-3}
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"; git worktree prune' EXIT

start=$(date +%s.%N)
"$bin" simulate --scenario scenarios/demo.toml --seed 1 --until 30d > "$work/events.jsonl"
end=$(date +%s.%N)
lines=$(wc -l < "$work/events.jsonl")
awk -v l="$lines" -v s="$start" -v e="$end" 'BEGIN {
  t = e - s; printf "simulate: 30 simulated days, %d events in %.2f s wall (%.0f events/s)\n", l, t, l / t }'

# Prints "events persisted/s simulated-hours/wall-s" of `$1 serve --speed max` on a fresh
# database over $seconds.
serve_rate() {
  local binary=$1 db
  db="$work/bench-$RANDOM.db"
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  echo "bench-password" | "$binary" user add --username bench --role admin \
    --database-url "sqlite://$db" > /dev/null
  "$binary" serve --addr "127.0.0.1:$port" --database-url "sqlite://$db" --no-dns \
    --speed max --log warn > "$work/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done
  metric() { curl -sf "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
  # Simulated seconds (consoles before 2026-12-03 exported milliseconds under another name).
  sim_seconds() {
    local s; s=$(metric switchyard_sim_time_seconds)
    if [ -n "$s" ]; then echo "$s"; else metric switchyard_sim_time_ms | awk '{ print $1 / 1000 }'; fi
  }
  local e0 t0 e1 t1
  e0=$(metric switchyard_events_persisted_total); e0=${e0:-0}
  t0=$(sim_seconds); t0=${t0:-0}
  sleep "$seconds"
  e1=$(metric switchyard_events_persisted_total)
  t1=$(sim_seconds)
  kill "$server"; wait "$server" 2>/dev/null || true
  server=
  rm -f "$db" "$db-wal" "$db-shm"
  awk -v a="$e0" -v b="$e1" -v ta="$t0" -v tb="$t1" -v s="$seconds" 'BEGIN {
    printf "%.0f %.1f\n", (b - a) / s, (tb - ta) / 3600 / s }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

if [ -z "${BENCH_BASELINE:-}" ]; then
  read -r rate hours < <(serve_rate "$bin")
  echo "serve --speed max: $rate events persisted/s, $hours simulated hours per wall second"
  exit 0
fi

# The baseline's server, built once per revision.
rev=$(git rev-parse --short "$BENCH_BASELINE")
base_bin=target/baseline/$rev/switchyard
if [ ! -x "$base_bin" ]; then
  tree="$work/baseline-tree"
  git worktree add --detach -q "$tree" "$rev"
  CARGO_TARGET_DIR="$PWD/target/baseline" cargo build --release -q -p server \
    --manifest-path "$tree/Cargo.toml"
  mkdir -p "target/baseline/$rev"
  cp target/baseline/release/switchyard "$base_bin"
  git worktree remove --force "$tree"
fi

: > "$work/base.txt"
: > "$work/this.txt"
for round in $(seq "$rounds"); do
  read -r rate _ < <(serve_rate "$base_bin")
  echo "round $round: baseline $rev: $rate events persisted/s"
  echo "$rate" >> "$work/base.txt"
  read -r rate _ < <(serve_rate "$bin")
  echo "round $round: this tree: $rate events persisted/s"
  echo "$rate" >> "$work/this.txt"
done
base=$(median < "$work/base.txt")
this=$(median < "$work/this.txt")
awk -v b="$base" -v t="$this" -v r="$rev" 'BEGIN {
  printf "serve --speed max, medians: this tree %d, baseline %s %d events persisted/s (%.1f %%)\n",
    t, r, b, 100 * t / b }'
