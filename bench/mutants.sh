#!/usr/bin/env bash
# Mutation testing of the engines' rule files: would the tests notice a broken rule?
# cargo-mutants changes one thing at a time in the code (a `<` into `<=`, a branch emptied, a
# function returning a default) and runs the engine's tests; a mutant the tests do not catch
# ("missed") is a rule no test pins down. Prints, per file, caught / missed / unviable /
# timeouts and the share caught of the viable mutants. Not part of `make test` (about 10 s a
# mutant; the whole list below takes a few hours on 2 cores).
#
# Mutants that cannot change behaviour (equivalent mutants) are excluded in
# .cargo/mutants.toml, each with the reason; docs/TESTING.md lists the figures.
#
# Usage: bench/mutants.sh                       every rule file below
#        bench/mutants.sh engine/src/lhc/election.rs ...   only these files
# The report of each run is kept in target/mutants/<file>/ (mutants.out/ of cargo-mutants).
set -euo pipefail
cd "$(dirname "$0")/.."

RULE_FILES=(
  engine/src/lhc/election.rs
  engine/src/lhc/registration.rs
  engine/src/lhc/ha_state.rs
  engine/src/lms/rules.rs
  engine/src/lms/placement.rs
  engine/src/lms/cadence.rs
  engine/src/gslb/adoption.rs
  engine/src/gslb/mep.rs
  engine/src/autoscale/decide.rs
  engine/src/autoscale/lifecycle.rs
)
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("${RULE_FILES[@]}")

if ! command -v cargo-mutants >/dev/null; then
  echo "==> installing cargo-mutants (crates.io)"
  cargo install cargo-mutants --locked
fi

# Debug info off keeps each mutant's build at about 10 s.
export CARGO_PROFILE_DEV_DEBUG=0

summary=()
for f in "${files[@]}"; do
  out="target/mutants/$(echo "$f" | tr '/' '_')"
  mkdir -p "$out"
  echo "==> $f"
  # cargo-mutants exits non-zero when a mutant is missed; the summary below says which.
  cargo mutants -p engine -f "$f" --output "$out" --no-shuffle || true
  dir="$out/mutants.out"
  count() { [ -f "$dir/$1.txt" ] && grep -c . "$dir/$1.txt" || echo 0; }
  caught=$(count caught); missed=$(count missed); unviable=$(count unviable)
  timeout=$(count timeout)
  viable=$((caught + missed + timeout))
  share=$(awk -v c="$caught" -v t="$timeout" -v v="$viable" \
    'BEGIN { if (v == 0) print "n/a"; else printf "%.1f %%", 100 * (c + t) / v }')
  summary+=("$(printf '%-36s caught %4s  missed %3s  timeout %2s  unviable %3s  -> %s' \
    "$f" "$caught" "$missed" "$timeout" "$unviable" "$share")")
  if [ "$missed" -gt 0 ]; then
    sed 's/^/    missed: /' "$dir/missed.txt"
  fi
done

echo
echo "Mutation testing of the engine rule files (caught + timeout over viable):"
printf '%s\n' "${summary[@]}"
