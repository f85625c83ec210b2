#!/usr/bin/env bash
# Durable runs: runtime throughput with snapshots on and off, journal append + acknowledgement
# latency at speed max, resume after a crash (demo estate after 30 simulated days, 1 M-VDA
# estate after 24 hours) and time travel to past instants. Prints the figures;
# docs/PERFORMANCE.md keeps them.
# Usage: bench/durability.sh [seconds per throughput sample]   (temporary SQLite files only)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -q -p services --example durability_bench -- "${1:-10}"
