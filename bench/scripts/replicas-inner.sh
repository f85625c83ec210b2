#!/usr/bin/env bash
# The body of bench/replicas.sh, run beside its throwaway cluster.
set -euo pipefail
bin=target/release/switchyard
seconds=${BENCH_SECONDS:-30}
rounds=${BENCH_ROUNDS:-5}
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

admin=${SWITCHYARD_TEST_POSTGRES_URL:?}
psql -q "$admin" -c "CREATE DATABASE replicas_bench"
export SWITCHYARD_DATABASE_URL="${admin%/*}/replicas_bench"
echo "bench-password" | "$bin" user add --username olga --role operator >/dev/null

port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})" 2>/dev/null \
  || python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
field() { grep -o "\"$1\":[^,}]*" | head -n 1 | cut -d: -f2 | tr -d '"'; }

# Starts a console on port $1 (log in $work/<port>.log); prints its pid.
start() {
  "$bin" serve --addr "127.0.0.1:$1" --no-dns --speed 60x --log warn > "$work/$1.log" 2>&1 &
  echo $!
}
wait_up() {
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$1/healthz" >/dev/null && return 0
    sleep 0.1
  done
  echo "console on $1 did not start:" >&2; cat "$work/$1.log" >&2; exit 1
}

a=$(port); b=$(port)
pa=$(start "$a"); pids+=("$pa"); wait_up "$a"
pb=$(start "$b"); pids+=("$pb"); wait_up "$b"
echo "leader on $a: $(curl -s "http://127.0.0.1:$a/healthz" | field role); follower on $b: $(curl -s "http://127.0.0.1:$b/healthz" | field role)"

: > "$work/lag"
end=$(( $(date +%s) + seconds ))
while [ "$(date +%s)" -lt "$end" ]; do
  curl -s "http://127.0.0.1:$b/healthz" | field lag_ms >> "$work/lag"
  sleep 0.1
done
sort -n "$work/lag" | awk -v s="$seconds" '{ v[NR] = $1 } END {
  printf "follower lag at 60x over %d s (%d samples): p50 %d ms, p95 %d ms, max %d ms\n",
    s, NR, v[int(NR * 0.5) + 1], v[int(NR * 0.95) + 1], v[NR] }'

sign_in() {
  curl -s -D - -o /dev/null -d "username=olga&password=bench-password" "http://127.0.0.1:$1/api/login" \
    | grep -i '^set-cookie:' | head -n 1 | sed 's/^[Ss]et-[Cc]ookie: //; s/;.*//'
}
leader=$a; lpid=$pa; follower=$b; fpid=$pb
: > "$work/failover"
for round in $(seq 1 "$rounds"); do
  cookie=$(sign_in "$follower")
  kill -9 "$lpid"
  killed=$(date +%s%N)
  until [ "$(curl -s "http://127.0.0.1:$follower/healthz" | field role)" = leader ]; do sleep 0.01; done
  led=$(date +%s%N)
  until [ "$(curl -s -o /dev/null -w '%{http_code}' -b "$cookie" -H 'Accept: application/json' \
        -d "text=after-failover-$round" "http://127.0.0.1:$follower/api/add_note")" = 200 ]; do sleep 0.01; done
  acting=$(date +%s%N)
  printf '%d %d\n' $(( (led - killed) / 1000000 )) $(( (acting - killed) / 1000000 )) >> "$work/failover"
  echo "round $round: leads after $(( (led - killed) / 1000000 )) ms, takes an action after $(( (acting - killed) / 1000000 )) ms"
  # The killed console comes back as the follower.
  npid=$(start "$leader"); pids+=("$npid"); wait_up "$leader"
  lpid=$fpid; fpid=$npid; tmp=$leader; leader=$follower; follower=$tmp
done
median_max() { sort -n | awk '{ v[NR] = $1 } END { printf "median %d ms (max %d ms)", v[int((NR + 1) / 2)], v[NR] }'; }
echo "failover over $rounds kills of the leader: leads after $(cut -d' ' -f1 "$work/failover" | median_max);" \
  "takes an action after $(cut -d' ' -f2 "$work/failover" | median_max)"
