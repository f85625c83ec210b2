#!/usr/bin/env bash
# How soon an alert shows in the console after the event that triggers it, at 60x, through
# real HTTP: `serve --speed x60` on a fresh SQLite database with one resource location whose
# cloud link is cut every 12 simulated minutes (restored 3 minutes later; the default
# HA Initial and Pending Recovery hold it in HA for about 9 minutes), and one rule
# (`ha_state`, Pending HA for 0 minutes, so it fires at the state change). A client polls
# `/api/clock_status` and `/api/alerts` every 10 ms; for each alert, the latency is the wall
# time from the last clock reading *before* the alert's `since_ms` (so the figure is an upper
# bound) to the first reading of `/api/alerts` that lists it. Prints each and the worst.
#
# Usage: bench/alerts.sh   (after `make build`; loopback only, BENCH_SECONDS wall, default 90)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/switchyard
seconds=${BENCH_SECONDS:-90}
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

{
  printf '[scenario]\nname = "alert latency"\n\n[[lhc.resource_locations]]\nid = "rl-lyon"\nname = "Lyon"\n\n'
  printf '[[lhc.resource_locations.connectors]]\nfqdn = "cc01.lyon.example.com"\n\n'
  for i in $(seq 0 40); do
    printf '[[actions]]\nat = "%dm"\nkind = "cloud_link"\nresource_location = "rl-lyon"\nup = false\n\n' $((1 + 12 * i))
    printf '[[actions]]\nat = "%dm"\nkind = "cloud_link"\nresource_location = "rl-lyon"\nup = true\n\n' $((4 + 12 * i))
  done
} > "$work/scenario.toml"

db="$work/bench.db"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "bench-password" | "$bin" user add --username bench --role admin --database-url "sqlite://$db" > /dev/null
"$bin" serve --addr "127.0.0.1:$port" --database-url "sqlite://$db" --no-dns \
  --scenario "$work/scenario.toml" --speed paused --log warn > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done

python3 - "$port" "$seconds" <<'PY'
import http.cookiejar, json, sys, time, urllib.request, urllib.parse
port, seconds = int(sys.argv[1]), float(sys.argv[2])
base = f"http://127.0.0.1:{port}"
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
def post(path, form=None):
    data = urllib.parse.urlencode(form or {}).encode()
    with opener.open(base + path, data=data) as r:
        return json.loads(r.read() or b"null")
post("/api/login", {"username": "bench", "password": "bench-password"})
post("/api/save_alert_rule", {"name": "pending", "severity": "critical", "kind": "ha_state",
                              "state": "pending_ha", "for_min": "0"})
post("/api/set_speed", {"speed": "x60"})
clock = []          # (wall, t_ms)
seen = {}           # alert id -> (wall first seen, since_ms)
end = time.monotonic() + seconds
while time.monotonic() < end:
    c = post("/api/clock_status")
    clock.append((time.monotonic(), c["t_ms"]))
    page = post("/api/alerts")
    now = time.monotonic()
    for a in page["history"]:
        seen.setdefault(a["id"], (now, a["since_ms"]))
    time.sleep(0.01)
lat = []
for wall_seen, since in sorted(seen.values(), key=lambda v: v[1]):
    before = [w for w, t in clock if t < since]
    if before:
        lat.append(wall_seen - before[-1])
if not lat:
    sys.exit("no alert fired")
print("alert latency at 60x: " + ", ".join(f"{l * 1000:.0f}" for l in lat) + " ms")
print(f"alert latency at 60x: {len(lat)} alerts, median {sorted(lat)[len(lat) // 2] * 1000:.0f} ms, "
      f"worst {max(lat) * 1000:.0f} ms (upper bounds; target 1000 ms)")
PY
