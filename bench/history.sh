#!/usr/bin/env bash
# History at scale on both stores: write rate (the console's writer on SQLite and on
# PostgreSQL, and the sqlite3 shell's own bulk import of the same rows), then the page queries
# (overview, entity timelines, filtered history pages) at 10 M stored events, p50 / p95.
# Prints the figures; docs/PERFORMANCE.md keeps them. PostgreSQL runs in a throwaway cluster
# with fsync on. About 20 minutes and 10 GB of temporary disk at the default size.
# Usage: bench/history.sh            BENCH_EVENTS=1000000 bench/history.sh   (a smaller run)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh --postgres
if ! command -v sqlite3 >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y sqlite3
fi
cargo build --release -q -p services --example history_bench
SWITCHYARD_PG_DURABLE=1 scripts/with-postgres.sh bash -c \
  'BENCH_POSTGRES_URL="$SWITCHYARD_TEST_POSTGRES_URL" target/release/examples/history_bench'
