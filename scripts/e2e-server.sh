#!/usr/bin/env bash
# Starts a fresh release server for the browser tests: a temporary SQLite database, three
# users (admin / operator / viewer, passwords from the environment), the demo scenario.
# Called by end2end/playwright.config.ts with E2E_PORT set.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/switchyard
db_dir=$(mktemp -d)
trap 'rm -rf "$db_dir"' EXIT
export SWITCHYARD_DATABASE_URL="sqlite://$db_dir/e2e.db"
for role in admin operator viewer; do
  echo "${E2E_PASSWORD:-e2e-password}" | "$bin" user add --username "$role" --role "$role" >/dev/null
done
"$bin" serve --addr "127.0.0.1:${E2E_PORT:?}" --dns-addr "127.0.0.1:${E2E_DNS_PORT:-0}" --site-root target/site --speed "${E2E_SPEED:-60x}" --log warn
