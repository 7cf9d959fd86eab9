#!/usr/bin/env bash
# pgbench against litewire and against a throwaway PostgreSQL 15, same machine, same
# scale, same scripts, interleaved: prints TPS for each and the litewire/PostgreSQL
# ratio, and the CPU time each server and the pgbench client spent per transaction
# (user + system, from /proc and time(1)): on a machine the client shares, TPS can only
# rise as far as 1 / (server + client CPU per transaction) per CPU allows.
# With ROUNDS=n each row runs n times, litewire and PostgreSQL alternating, and shows
# the medians. With SOCKETS=1 both servers also listen on a Unix-domain socket in
# one directory and pgbench connects through it instead of loopback TCP.
# Usage: bench/pgbench.sh
#   (env: SCALE=1 DURATION=15 ROUNDS=1 CLIENTS="1 8" MODES=... SCRIPTS=...
#         LITEWIRE_ARGS=... SOCKETS=0 BIN=target/release/litewire, built unless given)
set -euo pipefail
cd "$(dirname "$0")/.."

SCALE=${SCALE:-1}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-1}
LITEWIRE_ARGS=${LITEWIRE_ARGS:-} # extra flags, e.g. --thread-per-core
CLIENTS=${CLIENTS:-"1 8"}
MODES=${MODES:-"simple extended prepared"}
SCRIPTS=${SCRIPTS:-"select-only simple-update tpcb-like bench/tpcb-pipelined.sql"}
SYNCHRONOUS=${SYNCHRONOUS:-normal}
CACHE=${CACHE:-shared}
LW_PORT=${LW_PORT:-25432}
PG_PORT=${PG_PORT:-25433}
SOCKETS=${SOCKETS:-0}
PGBIN=/usr/lib/postgresql/15/bin

if [ ! -x "$PGBIN/postgres" ]; then
  echo "installing postgresql-15" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null
fi

[ -x /usr/bin/time ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null; }

if [ -z "${BIN:-}" ]; then
  unset LIBSQLITE3_FLAGS
  cargo build --release --quiet
  BIN=target/release/litewire
fi
work=$(mktemp -d)
chmod 755 "$work"
mkdir "$work/pg" && chown postgres "$work/pg" && chmod 700 "$work/pg"
# Where clients connect: loopback TCP, or (SOCKETS=1) the socket directory.
host=127.0.0.1 socket_dirs=''
if [ "$SOCKETS" = 1 ]; then
  host=$work/sock socket_dirs=$work/sock
  mkdir "$host" && chmod 777 "$host"
  LITEWIRE_ARGS="$LITEWIRE_ARGS --pg-socket-dir $host"
fi
cleanup() {
  [ -n "${lw_pid:-}" ] && kill "$lw_pid" 2>/dev/null || true
  [ -f "$work/pg/PG_VERSION" ] && su postgres -c "$PGBIN/pg_ctl -D $work/pg -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# litewire, release build, its defaults but for the port and these knobs.
# shellcheck disable=SC2086 # LITEWIRE_ARGS is a list of flags
$BIN --db "$work/litewire.db" --pg-listen "127.0.0.1:$LW_PORT" $LITEWIRE_ARGS \
  --http-listen 127.0.0.1:0 --cache "$CACHE" --synchronous "$SYNCHRONOUS" \
  --log-level warn 2>"$work/litewire.log" &
lw_pid=$!

# PostgreSQL 15 with its defaults (fsync on, synchronous_commit on): every commit is
# flushed to disk. Loopback TCP like litewire.
su postgres -c "$PGBIN/initdb -D $work/pg -A trust -U postgres" >/dev/null
printf "port = %s\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\n" "$PG_PORT" "$socket_dirs" >>"$work/pg/postgresql.conf"
su postgres -c "$PGBIN/pg_ctl -D $work/pg -l $work/pg/server.log -w start" >/dev/null
pg_pid=$(head -1 "$work/pg/postmaster.pid")

for _ in $(seq 50); do pg_isready -q -h "$host" -p "$LW_PORT" && break; sleep 0.1; done

run() { # port, pgbench args...
  local port=$1; shift
  pgbench -h "$host" -p "$port" -U postgres "$@" postgres 2>&1
}
field() { sed -n "s/^$1\([0-9.]*\).*/\1/p" | head -1; }
# CPU seconds in clock ticks a process used, with its reaped children (PostgreSQL's
# backends are the postmaster's children).
ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# One measured run: prints "tps server_us_per_txn client_us_per_txn".
measure() { # port, server pid, pgbench args...
  local port=$1 pid=$2; shift 2
  local before after out
  before=$(ticks "$pid")
  out=$(/usr/bin/time -f 'client-cpu %U %S' pgbench -h "$host" -p "$port" -U postgres "$@" postgres 2>&1)
  sleep 0.5 # backends exit and are reaped
  after=$(ticks "$pid")
  awk -v tps="$(echo "$out" | field 'tps = ')" \
      -v n="$(echo "$out" | field 'number of transactions actually processed: ')" \
      -v server=$((after - before)) -v hz="$hz" \
      -v client="$(echo "$out" | sed -n 's/^client-cpu //p')" \
      'BEGIN { split(client, c, " ");
               printf "%.0f %.1f %.1f\n", tps, server / hz * 1e6 / n, (c[1] + c[2]) * 1e6 / n }'
}

# The median of each column of a file of runs, one run per line.
medians() {
  local columns i
  columns=$(head -1 "$1" | wc -w)
  for i in $(seq "$columns"); do
    awk -v i="$i" '{ print $i }' "$1" | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'
  done | paste -sd' '
}

for port in "$LW_PORT" "$PG_PORT"; do
  run "$port" -i -q -s "$SCALE" >/dev/null
done

# A script is a built-in name or a file (bench/tpcb-pipelined.sql); a pipelined one
# needs the extended protocol, so it skips simple mode.
script_args() { case $1 in */*) echo "-f $1" ;; *) echo "-b $1" ;; esac; }
pipelined() { [ -f "$1" ] && grep -q '^\\startpipeline' "$1"; }

printf '%-14s %-9s %3s %9s %9s %6s | %-17s | %-17s\n' script mode c litewire postgres ratio \
  "server us/txn" "client us/txn"
printf '%-14s %-9s %3s %9s %9s %6s | %8s %8s | %8s %8s\n' "" "" "" TPS TPS "" litewire postgres litewire postgres
for script in $SCRIPTS; do
  for mode in $MODES; do
    if [ "$mode" = simple ] && pipelined "$script"; then continue; fi
    for c in $CLIENTS; do
      : >"$work/lw.runs"
      : >"$work/pg.runs"
      for _ in $(seq "$ROUNDS"); do
        # shellcheck disable=SC2046 # script_args is two words on purpose
        measure "$LW_PORT" "$lw_pid" $(script_args "$script") -M "$mode" -c "$c" -j 2 -T "$DURATION" >>"$work/lw.runs"
        # shellcheck disable=SC2046
        measure "$PG_PORT" "$pg_pid" $(script_args "$script") -M "$mode" -c "$c" -j 2 -T "$DURATION" >>"$work/pg.runs"
      done
      read -r lw lw_server lw_client < <(medians "$work/lw.runs")
      read -r pg pg_server pg_client < <(medians "$work/pg.runs")
      ratio=$(awk -v a="$lw" -v b="$pg" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
      printf '%-14s %-9s %3s %9.0f %9.0f %6s | %8s %8s | %8s %8s\n' "$(basename "$script" .sql)" "$mode" "$c" \
        "$lw" "$pg" "$ratio" "$lw_server" "$pg_server" "$lw_client" "$pg_client"
    done
  done
done
echo "litewire: cache=$CACHE synchronous=$SYNCHRONOUS (WAL) $LITEWIRE_ARGS; PostgreSQL 15: fsync=on synchronous_commit=on; scale=$SCALE, ${DURATION}s per run, median of $ROUNDS, -j 2, clients on $host"
