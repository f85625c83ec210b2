#!/usr/bin/env bash
# The body of bench/soak.sh.
set -euo pipefail
bin=target/release/switchyard
seconds=${BENCH_SECONDS:-600}
clients=4
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"' EXIT

if [ -n "${SWITCHYARD_TEST_POSTGRES_URL:-}" ]; then
  psql -q "$SWITCHYARD_TEST_POSTGRES_URL" -c "CREATE DATABASE soak"
  export SWITCHYARD_DATABASE_URL="${SWITCHYARD_TEST_POSTGRES_URL%/*}/soak"
  store=postgres
else
  export SWITCHYARD_DATABASE_URL="sqlite://$work/soak.db"
  store=sqlite
fi
echo "soak-password" | "$bin" user add --username vera --role viewer >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
"$bin" serve --addr "127.0.0.1:$port" --no-dns --speed max --log warn > "$work/serve.log" 2>&1 &
server=$!; pids+=("$server")
for _ in $(seq 1 300); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
cookie=$(curl -s -D - -o /dev/null -d "username=vera&password=soak-password" "$base/api/login" \
  | grep -i '^set-cookie:' | head -n 1 | sed 's/^[Ss]et-[Cc]ookie: //; s/;.*//')

# The live stream: counts the bytes it receives.
curl -sN -b "$cookie" "$base/api/stream" > "$work/stream" 2>/dev/null &
pids+=("$!")
started=$(date +%s)
for c in $(seq 1 "$clients"); do
  (
    while [ $(( $(date +%s) - started )) -lt "$seconds" ]; do
      # second, status, time (s)
      curl -s -o /dev/null -b "$cookie" -w "$(( $(date +%s) - started )) %{http_code} %{time_total}\n" "$base/" || echo "$(( $(date +%s) - started )) 000 0"
    done > "$work/client-$c"
  ) &
  pids+=("$!")
done
: > "$work/rss"
while [ $(( $(date +%s) - started )) -lt "$seconds" ]; do
  sleep 10
  t=$(( $(date +%s) - started ))
  rss=$(awk '/VmRSS/ { print $2 }' "/proc/$server/status")
  # The heap and the other private memory, apart from mapped files and shared memory.
  anon=$(awk '/RssAnon/ { print $2 }' "/proc/$server/status")
  stored=$(curl -s "$base/healthz" | grep -o '"sim_time_ms":[0-9]*' | cut -d: -f2)
  persisted=$(curl -s "$base/metrics" | awk '/^switchyard_events_persisted_total/ { print $2 }')
  echo "$t $rss ${persisted:-0} ${stored:-0} ${anon:-0}" >> "$work/rss"
done
for c in $(seq 1 "$clients"); do wait "${pids[$(( c + 1 ))]}" 2>/dev/null || true; done
# Whole pages over HTTP at the size the run reached (the clock still at max).
pages=(/ /lhc /lhc/rl-paris /lms /gslb /autoscale /history "/history?engine=lhc" "/history?engine=lms&kind=session.placed")
: > "$work/pages"
for page in "${pages[@]}"; do
  for _ in $(seq 1 20); do
    curl -s -o /dev/null -b "$cookie" -w "$page %{http_code} %{time_total}\n" "$base$page" >> "$work/pages"
  done
done
stream_bytes=$(wc -c < "$work/stream")
cat "$work"/client-* > "$work/all"
echo "soak on $store: ${seconds} s at max, $clients clients on the overview, one live stream ($stream_bytes bytes received)"
awk -v rssfile="$work/rss" '
  BEGIN { while ((getline line < rssfile) > 0) { split(line, f, " "); m = int((f[1] - 1) / 60); rss[m] = f[2]; ev[m] = f[3]; anon[m] = f[5] } }
  { m = int($1 / 60); n[m]++; if ($2 != 200) err[m]++; t[m, n[m]] = $3; if (m > last) last = m }
  END {
    for (i = 0; i <= last; i++) {
      k = n[i]; delete s; for (j = 1; j <= k; j++) s[j] = t[i, j]
      # insertion sort of the minute'"'"'s times
      for (a = 2; a <= k; a++) { v = s[a]; b = a - 1; while (b > 0 && s[b] > v) { s[b + 1] = s[b]; b-- } s[b + 1] = v }
      p50 = s[int(k * 0.5) + 1] * 1000; p95 = s[int(k * 0.95) + 1] * 1000
      printf "minute %2d: %6.1f requests/s, overview p50 %6.1f ms p95 %6.1f ms, errors %d, RSS %6.1f MiB (anonymous %6.1f), events stored %d\n",
        i + 1, k / 60, p50, p95, err[i] + 0, rss[i] / 1024, anon[i] / 1024, ev[i]
      errors += err[i]
    }
    first = 1; lastfull = last - (last > 1 ? 1 : 0)
    printf "end vs start: %.0f %% of the rate of minute 2 (%.1f vs %.1f requests/s); RSS %+.1f %% after the first minute; %d errors\n",
      100 * n[lastfull] / n[first], n[lastfull] / 60, n[first] / 60, 100 * (rss[lastfull] - rss[0]) / rss[0], errors
  }' "$work/all"
total=$(curl -s "$base/metrics" | awk '/^switchyard_events_persisted_total/ { print $2 }')
echo "whole pages over HTTP at ${total:-?} stored events (20 loads each, clock at max), p50 / p95 / status:"
for page in "${pages[@]}"; do
  grep -F "$page " "$work/pages" | awk -v p="$page" '$1 == p { t[++n] = $3 * 1000; if ($2 != 200) bad++ } END {
    for (a = 2; a <= n; a++) { v = t[a]; b = a - 1; while (b > 0 && t[b] > v) { t[b + 1] = t[b]; b-- } t[b + 1] = v }
    printf "  %-40s %7.1f / %7.1f ms  %s\n", p, t[int(n * 0.5) + 1], t[int(n * 0.95) + 1], (bad ? bad " not 200" : "all 200") }'
done
