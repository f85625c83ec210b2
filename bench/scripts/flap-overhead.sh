#!/usr/bin/env bash
# The cost of flap detection on one engine benchmark's scenario, in the same run: the engines
# alone (`switchyard simulate`, events to /dev/null, no database) with `[attention]` as the
# scenario has it (defaults: every engine watched) and with every engine's watch disabled,
# best of BENCH_REPEAT runs each. Prints both wall times and the overhead.
# Usage: bench/scripts/flap-overhead.sh LABEL SCENARIO UNTIL   (from the other bench scripts)
set -euo pipefail
label=$1 scenario=$2 until=$3
bin=${BIN:-$PWD/target/release/switchyard}
repeat=${BENCH_REPEAT:-2}
off=$(mktemp --suffix .toml)
trap 'rm -f "$off"' EXIT
cp "$scenario" "$off"
for engine in lhc lms gslb autoscale; do
  printf '\n[attention.%s]\nenabled = false\n' "$engine" >> "$off"
done
best() {
  local best=
  for _ in $(seq "$repeat"); do
    /usr/bin/time -f "%e" -o "$off.time" "$bin" simulate --scenario "$1" --until "$until" > /dev/null
    local t
    t=$(cat "$off.time")
    best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a) ? b : a }')
  done
  rm -f "$off.time"
  echo "$best"
}
with=$(best "$scenario")
without=$(best "$off")
awk -v l="$label" -v w="$with" -v o="$without" 'BEGIN {
  printf "%s, flap detection: %.2f s with, %.2f s without (engines only, best of runs): %+.1f %%\n",
    l, w, o, (o > 0 ? (w - o) * 100 / o : 0) }'
