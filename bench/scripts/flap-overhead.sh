#!/usr/bin/env bash
# The cost of flap detection on one engine benchmark's scenario, in the same run: the engines
# alone with `[attention]` as the scenario has it (every engine watched by default) and with
# every engine's watch disabled, best of BENCH_REPEAT runs each (engine example
# `flap_overhead`). Prints both wall times and the overhead.
# Usage: bench/scripts/flap-overhead.sh LABEL SCENARIO UNTIL   (from the other bench scripts)
set -euo pipefail
cargo run --quiet --release -p engine --example flap_overhead -- "$1" "$2" "$3" "${BENCH_REPEAT:-3}"
