#!/usr/bin/env bash
# pgbench against litewire and against a throwaway PostgreSQL 15, same machine, same
# scale, same scripts, interleaved: prints TPS for each and the litewire/PostgreSQL
# ratio. Usage: bench/pgbench.sh   (env: SCALE=1 DURATION=15 CLIENTS="1 8" MODES=...)
set -euo pipefail
cd "$(dirname "$0")/.."

SCALE=${SCALE:-1}
DURATION=${DURATION:-15}
CLIENTS=${CLIENTS:-"1 8"}
MODES=${MODES:-"simple extended prepared"}
SCRIPTS=${SCRIPTS:-"select-only simple-update tpcb-like"}
SYNCHRONOUS=${SYNCHRONOUS:-normal}
CACHE=${CACHE:-shared}
LW_PORT=${LW_PORT:-25432}
PG_PORT=${PG_PORT:-25433}
PGBIN=/usr/lib/postgresql/15/bin

if [ ! -x "$PGBIN/postgres" ]; then
  echo "installing postgresql-15" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null
fi

unset LIBSQLITE3_FLAGS
cargo build --release --quiet
work=$(mktemp -d)
chmod 755 "$work"
mkdir "$work/pg" && chown postgres "$work/pg" && chmod 700 "$work/pg"
cleanup() {
  [ -n "${lw_pid:-}" ] && kill "$lw_pid" 2>/dev/null || true
  [ -f "$work/pg/PG_VERSION" ] && su postgres -c "$PGBIN/pg_ctl -D $work/pg -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# litewire, release build, its defaults but for the port and these knobs.
target/release/litewire --db "$work/litewire.db" --pg-listen "127.0.0.1:$LW_PORT" \
  --http-listen 127.0.0.1:0 --cache "$CACHE" --synchronous "$SYNCHRONOUS" \
  --log-level warn 2>"$work/litewire.log" &
lw_pid=$!

# PostgreSQL 15 with its defaults (fsync on, synchronous_commit on): every commit is
# flushed to disk. Loopback TCP like litewire.
su postgres -c "$PGBIN/initdb -D $work/pg -A trust -U postgres" >/dev/null
printf "port = %s\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n" "$PG_PORT" >>"$work/pg/postgresql.conf"
su postgres -c "$PGBIN/pg_ctl -D $work/pg -l $work/pg/server.log -w start" >/dev/null

for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p "$LW_PORT" && break; sleep 0.1; done

run() { # port, pgbench args...
  local port=$1; shift
  pgbench -h 127.0.0.1 -p "$port" -U postgres "$@" postgres 2>&1
}
tps() { sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1; }

for port in "$LW_PORT" "$PG_PORT"; do
  run "$port" -i -q -s "$SCALE" >/dev/null
done

printf '%-14s %-9s %3s %12s %12s %7s\n' script mode c litewire postgres ratio
for script in $SCRIPTS; do
  for mode in $MODES; do
    for c in $CLIENTS; do
      lw=$(run "$LW_PORT" -b "$script" -M "$mode" -c "$c" -j 2 -T "$DURATION" | tps)
      pg=$(run "$PG_PORT" -b "$script" -M "$mode" -c "$c" -j 2 -T "$DURATION" | tps)
      ratio=$(awk -v a="$lw" -v b="$pg" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
      printf '%-14s %-9s %3s %12.0f %12.0f %7s\n' "$script" "$mode" "$c" "$lw" "$pg" "$ratio"
    done
  done
done
echo "litewire: cache=$CACHE synchronous=$SYNCHRONOUS (WAL); PostgreSQL 15: fsync=on synchronous_commit=on; scale=$SCALE, ${DURATION}s per run, -j 2"
