#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster, then removes the cluster:
#   scripts/with-postgres.sh cargo test ...
# initdb into a temporary folder, pg_ctl start on a free loopback port, the command run with
# SWITCHYARD_TEST_POSTGRES_URL set (a superuser URL with its password: tests create a
# database each), the cluster stopped and its folder deleted however the command ends. Needs Debian's
# `postgresql` package (scripts/ensure-tools.sh --postgres installs it). As root, the server
# runs as the package's `postgres` user (initdb refuses root).
# The cluster runs with fsync=off (it is thrown away) unless SWITCHYARD_PG_DURABLE=1, which
# the benchmarks set: their figures are for a server that syncs its commits.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres: PostgreSQL's server tools are missing (scripts/ensure-tools.sh --postgres installs them)" >&2
  exit 2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/switchyard-pg.XXXXXX")
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$dir"
  as_owner=(runuser -u postgres --)
fi

free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  return 1
}
port=$(free_port)

stop() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

# Connections over TCP need the password (so a wrong one can be tested); the socket trusts.
password=$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')
echo "$password" > "$dir/pw"
"${as_owner[@]}" "$bin/initdb" -D "$dir/data" --auth-local=trust --auth-host=scram-sha-256 \
  --pwfile="$dir/pw" -U postgres -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
settings="-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300"
if [ "${SWITCHYARD_PG_DURABLE:-0}" != 1 ]; then
  settings="$settings -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
else
  # A server sized for a benchmark rather than PostgreSQL's small defaults.
  settings="$settings -c shared_buffers=1GB -c max_wal_size=8GB -c checkpoint_timeout=15min"
fi
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "$settings" \
  start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }

export SWITCHYARD_TEST_POSTGRES_URL="postgres://postgres:$password@127.0.0.1:$port/postgres"
echo "==> throwaway PostgreSQL cluster on 127.0.0.1:$port" >&2
status=0
"$@" || status=$?
exit "$status"
