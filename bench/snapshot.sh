#!/usr/bin/env bash
# Snapshots of a whole simulation (engine::snapshot): size in bytes, encode and restore time.
# Prints the figures; docs/PERFORMANCE.md keeps them.
#   1. The demo estate (scenarios/demo.toml, seed 42) after 24 simulated hours.
#   2. The LHC estate of bench/lhc.sh (100 resource locations × 3 Cloud Connectors × 10,000
#      VDAs, 1 M VDAs, outage forced everywhere from 6 h to 8 h), mid-outage (7 h) and after
#      24 h.
#   3. 50 autoscale groups × 3 zones after 7 days (a full week of per-minute history each).
# Each time is the median of BENCH_RUNS (default 7); each restore is checked to have the same
# next simulated hour as the original.
# Usage: bench/snapshot.sh   (engine only: builds and runs the release example)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --release -p engine --example snapshot_bench -- "${BENCH_RUNS:-7}"
