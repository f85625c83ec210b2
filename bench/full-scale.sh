#!/usr/bin/env bash
# Every page of the console with the full-scale estate (`switchyard scenario generate --size
# full`: 1 M VDAs, 10,000 servers, 1,056 GSLB sites, 150 autoscale clusters) running live at
# 600x on a fresh SQLite database, measured the way a person meets them: Debian's Chromium
# (driven by the browser suite's Playwright) opens each page signed in, and a client asks
# for each page's HTML twenty times. Prints, per page: the HTML's size, the DOM's element
# count, the load time in Chromium (navigation start to the load event), and the server's
# render time (p95 of the twenty), each against the target of the full-scale issue
# (300 KB, 3,000 elements, 500 ms, 50 ms); then the server-side time of the largest lists'
# search, filter and sort answers (p95 of twenty; target 100 ms).
# First, 24 simulated hours of the same estate headless (`simulate`), with its events
# persisted to SQLite (target: 8 s wall, 1 GiB peak) and with its events printed to
# /dev/null instead (the engines and the JSON lines, no database).
#
# Usage: bench/full-scale.sh   (after `make build` and the browser suite's `npm ci`; loopback
# only; SECONDS_BEFORE, default 20: the wall seconds the estate runs before measuring;
# PAGES_ONLY=1 skips the headless day)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/switchyard
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin" scenario generate --size full --out "$work/full.toml"

if [ -z "${PAGES_ONLY:-}" ]; then
  command -v /usr/bin/time > /dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
  /usr/bin/time -f "%e %M" -o "$work/time-db" "$bin" simulate --scenario "$work/full.toml" \
    --until 24h --database-url "sqlite://$work/sim.db" --quiet
  /usr/bin/time -f "%e %M" -o "$work/time-out" "$bin" simulate --scenario "$work/full.toml" \
    --until 24h > /dev/null
  events=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from events").fetchone()[0])' "$work/sim.db")
  rm -f "$work"/sim.db*
  for f in db out; do
    read -r wall rss_kb < "$work/time-$f"
    awk -v f="$f" -v w="$wall" -v r="$rss_kb" -v n="$events" 'BEGIN {
      what = (f == "db") ? "events persisted to SQLite" : "events printed to /dev/null";
      ok = (f == "db") ? ((w <= 8 && r <= 1048576) ? "ok " : "OVER") : "   ";
      printf "%s simulate 24 h of the full-scale estate, %s (%d events): %.2f s wall, %d MiB peak\n", ok, what, n, w, r / 1024
    }'
  done
fi
db="$work/full.db"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "bench-password" | "$bin" user add --username bench --role admin --database-url "sqlite://$db" > /dev/null
"$bin" serve --addr "127.0.0.1:$port" --database-url "sqlite://$db" --no-dns \
  --scenario "$work/full.toml" --speed x600 --log warn > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$port/healthz" > /dev/null || { cat "$work/serve.log" >&2; exit 1; }
sleep "${SECONDS_BEFORE:-20}"

cd end2end
BASE="http://127.0.0.1:$port" node ../bench/scripts/full-scale.mjs
