#!/usr/bin/env bash
# Server rendering against static files on the same server: wrk (Debian's `wrk` package)
# asks for the overview page (rendered per request, signed in) and for the bundle's
# stylesheet (a static file) on one `switchyard serve` with the demo estate running at 60x.
# The two alternate for a few rounds (the static rate of a shared VM moves by a third from one
# run to the next); each round prints both rates and their ratio, and the last line the
# median ratio (the target: the overview at >= 25 % of the static rate).
# Usage: bench/ssr.sh [seconds per run, default 10] [rounds, default 3]   (after `make build`)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "ssr: needs wrk (apt-get install wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "ssr: needs curl" >&2; exit 2; }
secs=${1:-10}
rounds=${2:-3}
site=target/site
name=$(cat "$site/bundle.txt")

dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export SWITCHYARD_DATABASE_URL="sqlite://$dir/ssr.db"
echo "ssr-bench-password" | target/release/switchyard user add --username bench --role viewer >/dev/null
target/release/switchyard serve --addr "127.0.0.1:$port" --no-dns --speed x60 --log warn &
pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
cookie=$(curl -s -D - -o /dev/null -H "Origin: $base" \
  -d "username=bench&password=ssr-bench-password" "$base/api/login" |
  sed -n 's/^[Ss]et-[Cc]ookie: \(switchyard_session=[^;]*\).*/\1/p')
[ -n "$cookie" ] || { echo "ssr: sign-in failed" >&2; exit 1; }
# Let the estate run a little so the overview has events to show.
sleep 3

rate() { # path -> requests/s
  wrk -t2 -c32 -d"${secs}s" -H "Cookie: $cookie" "$base$1" |
    awk '/Requests\/sec/ {print $2} /Non-2xx/ {print "non-2xx: " $0 > "/dev/stderr"}'
}
ratios=()
for round in $(seq "$rounds"); do
  overview=$(rate /)
  static=$(rate "/pkg/$name/switchyard.css")
  ratio=$(python3 -c "print(f'{100*$overview/$static:.1f}')")
  ratios+=("$ratio")
  echo "round $round: overview / $overview requests/s, static file (css, $(stat -c %s "$site/pkg/$name/switchyard.css") B) $static requests/s: $ratio %"
done
echo "overview / static, median of $rounds rounds: $(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}') %"
