#!/usr/bin/env bash
# Two consoles on one PostgreSQL database (a throwaway cluster with fsync on), the demo
# estate at 60x: the follower's lag behind the leader's clock marks (sampled from its
# /healthz every 100 ms for BENCH_SECONDS, default 30), then BENCH_ROUNDS (default 5)
# failovers: kill -9 of the leader, the time until the follower's /healthz says "leader"
# and it accepts an action, the killed console started again as the new follower.
# Prints the figures; docs/PERFORMANCE.md keeps them.
# Usage: bench/replicas.sh   (after `make build`; loopback only, stops by itself)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh --postgres
command -v curl >/dev/null || { echo "replicas: needs curl" >&2; exit 2; }
SWITCHYARD_PG_DURABLE=1 exec scripts/with-postgres.sh bash bench/scripts/replicas-inner.sh
