#!/usr/bin/env bash
# The console's weight on the wire: the browser bundle's files as built (raw, brotli, gzip),
# what a browser is sent for them and for the overview page (Content-Encoding, bytes,
# Cache-Control), and how long a second `make build` takes when nothing changed (the part of
# `make run` before the server starts), and the time to interactive over a throttled link
# (bench/scripts/tti.mjs, Debian's Chromium through the end-to-end suite's Playwright). Needs
# curl and end2end/node_modules (`make test` installs them). About a minute after `make build`.
# Usage: bench/weight.sh   (after `make build`)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v curl >/dev/null || { echo "weight: needs curl" >&2; exit 2; }
site=target/site
name=$(cat "$site/bundle.txt")
dir_pkg="$site/pkg/$name"
echo "bundle $name"
printf '%-44s %12s %12s %12s\n' file raw brotli gzip
size() { stat -c %s "$1"; }
for f in $(find "$dir_pkg" -type f ! -name '*.br' ! -name '*.gz' | sort); do
  printf '%-44s %12s %12s %12s\n' "$(basename "$f")" "$(size "$f")" "$(size "$f.br")" "$(size "$f.gz")"
done
# What a page needs before it is interactive: the bundle's one module and its script (every
# page the same: the pages are rendered on the server; the browser hydrates their islands).
echo "wasm and script a page needs: $(( $(size "$dir_pkg/switchyard_bg.wasm") + $(size "$dir_pkg/switchyard.js") )) B raw," \
  "$(( $(size "$dir_pkg/switchyard_bg.wasm.br") + $(size "$dir_pkg/switchyard.js.br") )) B brotli"

start=$(date +%s.%N)
make -s build >/dev/null
echo "make build with nothing changed: $(echo "$(date +%s.%N) - $start" | bc) s"

dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export SWITCHYARD_DATABASE_URL="sqlite://$dir/weight.db"
echo "weight-bench-password" | target/release/switchyard user add --username bench --role viewer >/dev/null
target/release/switchyard serve --addr "127.0.0.1:$port" --no-dns --speed paused --log warn &
pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port"
jar="$dir/cookies"
curl -s -c "$jar" -H "Origin: $base" -d "username=bench&password=weight-bench-password" "$base/api/login" >/dev/null
fetch() { # path, accept-encoding
  curl -s -b "$jar" -o /dev/null -H "Accept-Encoding: $2" \
    -w "%{size_download} bytes, %header{content-encoding}, cache-control: %header{cache-control}" "$base$1"
}
for enc in identity gzip br; do
  echo "main wasm ($enc): $(fetch "/pkg/$name/switchyard_bg.wasm" "$enc")"
  echo "overview ($enc): $(fetch / "$enc")"
done

echo
(cd end2end && BASE="$base" PASSWORD=weight-bench-password node ../bench/scripts/tti.mjs)
