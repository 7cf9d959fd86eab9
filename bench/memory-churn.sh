#!/usr/bin/env bash
# Whether memory comes back: litewire's resident memory (VmRSS) idle, then right after
# 1 000 PostgreSQL clients connected (100 at a time), each ran one statement and left,
# then again after WAIT seconds, in both cache modes. With `LITEWIRE_ARGS` extra flags.
# Usage: bench/memory-churn.sh
#   (env: WAIT=70 PORT=28094 LITEWIRE_ARGS=... BIN=target/release/litewire, built unless given)
set -euo pipefail
cd "$(dirname "$0")/.."
WAIT=${WAIT:-70}
PG_PORT=${PORT:-28094}
HTTP_PORT=$((PG_PORT + 1))
LITEWIRE_ARGS=${LITEWIRE_ARGS:-}
if [ -z "${BIN:-}" ]; then
  unset LIBSQLITE3_FLAGS
  cargo build --release --quiet --bin litewire
  BIN=target/release/litewire
fi
work=$(mktemp -d)
trap 'kill $lw_pid 2>/dev/null || true; rm -rf "$work"' EXIT

rss_mb() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
threads() { awk '/Threads/ { print $2 }' "/proc/$1/status"; }

printf 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;\n' >"$work/one.sql"
printf '%-8s %10s %14s %14s %14s\n' cache idle_mb after_mb "after_${WAIT}s_mb" threads
for cache in shared private; do
  rm -f "$work"/db*
  # shellcheck disable=SC2086 # a list of flags
  $BIN --db "$work/db" --cache "$cache" --pg-listen "127.0.0.1:$PG_PORT" \
    --http-listen "127.0.0.1:$HTTP_PORT" --log-level warn $LITEWIRE_ARGS 2>"$work/log" &
  lw_pid=$!
  for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p "$PG_PORT" && break; sleep 0.1; done
  pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -i -q -s 1 postgres >/dev/null 2>&1
  sleep 3
  idle=$(rss_mb $lw_pid)
  pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -C -c 100 -j 2 -t 10 -f "$work/one.sql" postgres >/dev/null 2>&1
  sleep 1
  after=$(rss_mb $lw_pid)
  sleep "$WAIT"
  printf '%-8s %10s %14s %14s %14s\n' "$cache" "$idle" "$after" "$(rss_mb $lw_pid)" "$(threads $lw_pid)"
  kill "$lw_pid"; wait "$lw_pid" 2>/dev/null || true
done
