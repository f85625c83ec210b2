#!/usr/bin/env bash
# The soak of the history at scale: `serve --speed max` on the demo estate for BENCH_SECONDS
# (default 600), 4 clients loading the overview in a loop and one live stream open, on
# SQLite (BENCH_STORE=sqlite, the default) or PostgreSQL (BENCH_STORE=postgres, a throwaway
# cluster with fsync on). Prints per minute: requests/s, overview p50/p95, RSS, events
# stored; then the end against the start (rate ≥ 80 %, RSS growth after the first minute
# ≤ 10 %) and the errors (0). Needs curl. About BENCH_SECONDS + 1 min.
# Usage: bench/soak.sh   BENCH_STORE=postgres bench/soak.sh   (after `make build`)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v curl >/dev/null || { echo "soak: needs curl" >&2; exit 2; }
if [ "${BENCH_STORE:-sqlite}" = postgres ]; then
  scripts/ensure-tools.sh --postgres
  SWITCHYARD_PG_DURABLE=1 exec scripts/with-postgres.sh bash bench/scripts/soak-inner.sh
fi
exec bash bench/scripts/soak-inner.sh
