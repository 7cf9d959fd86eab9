#!/usr/bin/env bash
# What authentication costs per connection: pgbench -C (a new connection for every
# transaction, the transaction a bare SELECT 1) against litewire with no password
# (trust), with SCRAM-SHA-256, and with SCRAM-SHA-256 inside TLS; and, as the
# baseline from the same run, PostgreSQL 15 with trust and with SCRAM-SHA-256.
# Prints connections per second and pgbench's average connection time.
# Usage: bench/connect.sh   (env: DURATION=10 CLIENTS=4)
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
CLIENTS=${CLIENTS:-4}
LW_PORT=${LW_PORT:-25442}
PG_PORT=${PG_PORT:-25443}
PGBIN=/usr/lib/postgresql/15/bin
PASSWORD=bench-password

if [ ! -x "$PGBIN/postgres" ]; then
  echo "installing postgresql-15" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null
fi

unset LIBSQLITE3_FLAGS
cargo build --release --quiet
work=$(mktemp -d)
chmod 755 "$work"
cleanup() {
  [ -n "${lw_pid:-}" ] && kill "$lw_pid" 2>/dev/null || true
  [ -f "$work/pg/PG_VERSION" ] && su postgres -c "$PGBIN/pg_ctl -D $work/pg -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
echo "SELECT 1;" >"$work/select1.sql"

# conn/s and average connection time of one pgbench -C run; $1 = libpq conninfo.
measure() {
  local out
  out=$(PGPASSWORD=$PASSWORD pgbench -n -C -f "$work/select1.sql" -T "$DURATION" -c "$CLIENTS" -j 2 "$1" 2>&1) ||
    { echo "$out" >&2; return 1; }
  local tps conn
  tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
  conn=$(echo "$out" | sed -n 's/^average connection time = \([0-9.]*\) ms/\1/p')
  printf "%-34s %10s conn/s   %8s ms per connection\n" "$2" "$tps" "$conn"
}

# litewire, release build; $@: the flags that differ.
litewire() {
  [ -n "${lw_pid:-}" ] && { kill "$lw_pid"; wait "$lw_pid" 2>/dev/null || true; }
  rm -f "$work"/litewire.db*
  target/release/litewire --db "$work/litewire.db" --pg-listen "127.0.0.1:$LW_PORT" \
    --http-listen 127.0.0.1:0 --log-level warn "$@" 2>>"$work/litewire.log" &
  lw_pid=$!
  for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p "$LW_PORT" && return; sleep 0.1; done
  echo "litewire did not start" >&2
  cat "$work/litewire.log" >&2
  exit 1
}

echo "pgbench -C, SELECT 1 per connection, $CLIENTS clients, ${DURATION}s each"
conn="host=127.0.0.1 port=$LW_PORT user=postgres dbname=litewire"
litewire
measure "$conn sslmode=disable" "litewire trust"
LITEWIRE_PASSWORD=$PASSWORD litewire
measure "$conn sslmode=disable" "litewire SCRAM-SHA-256"
LITEWIRE_PASSWORD=$PASSWORD litewire --tls-self-signed
measure "$conn sslmode=require" "litewire SCRAM-SHA-256 + TLS"
kill "$lw_pid"
wait "$lw_pid" 2>/dev/null || true
lw_pid=

# PostgreSQL 15 with its defaults, trust then SCRAM (its default method).
mkdir "$work/pg" && chown postgres "$work/pg" && chmod 700 "$work/pg"
echo "$PASSWORD" >"$work/pwfile" && chmod 644 "$work/pwfile"
su postgres -c "$PGBIN/initdb -D $work/pg -U postgres --pwfile=$work/pwfile -A trust" >/dev/null
printf "port = %s\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n" "$PG_PORT" >>"$work/pg/postgresql.conf"
su postgres -c "$PGBIN/pg_ctl -D $work/pg -l $work/pg/server.log -w start" >/dev/null
conn="host=127.0.0.1 port=$PG_PORT user=postgres dbname=postgres sslmode=disable"
measure "$conn" "PostgreSQL 15 trust"
sed -i 's/\btrust$/scram-sha-256/' "$work/pg/pg_hba.conf"
su postgres -c "$PGBIN/pg_ctl -D $work/pg reload" >/dev/null
sleep 0.5
measure "$conn" "PostgreSQL 15 SCRAM-SHA-256"
