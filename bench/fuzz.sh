#!/usr/bin/env bash
# Property-based fuzzing at scale: FUZZ_CASES (default 10,000) cases of each property —
# scenario files (and a run of each one that parses), actions files, the GSLB CLI import,
# durations, and every server function's argument decoding. Prints the cases run and the
# time; any panic fails the run with the input proptest shrank it to.
# Usage: bench/fuzz.sh   FUZZ_CASES=50000 bench/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export FUZZ_CASES=${FUZZ_CASES:-10000}
start=$(date +%s)
cargo test --release -q -p engine --test fuzz_parsers -- --test-threads 2 2>&1 | tail -n 3
engine_s=$(( $(date +%s) - start ))
start=$(date +%s)
cargo test --release -q -p app --features ssr --lib -- codec::tests::any_form_body 2>&1 | tail -n 3
app_s=$(( $(date +%s) - start ))
echo "fuzz: $FUZZ_CASES cases each of 4 parser properties (${engine_s} s, build included) and of the server functions' arguments ($app_s s, 48 argument types per case): 0 panics"
