#!/usr/bin/env bash
# What one statement costs litewire: pgbench runs with `perf stat` on the server,
# printing context switches and server CPU time per transaction. Every statement
# crosses threads (tokio worker -> SQLx's SQLite thread for the connection -> back),
# and each crossing is a futex or eventfd wake-up. The runs are repeated with
# litewire confined to one CPU (pgbench on the other), to tell the cost of the
# wake-ups themselves from the cost of waking another CPU.
# Usage: bench/affinity.sh   (env: DURATION=10 PORT=25442)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
PORT=${PORT:-25442}
command -v perf >/dev/null || { apt-get update -qq && apt-get install -y -qq linux-perf >/dev/null; }

unset LIBSQLITE3_FLAGS
cargo build --release --quiet
work=$(mktemp -d)
trap 'kill $lw_pid 2>/dev/null || true; rm -rf "$work"' EXIT

start() { # cpu list for litewire ("" = all)
  local pin=()
  [ -n "$1" ] && pin=(taskset -c "$1")
  "${pin[@]}" target/release/litewire --db "$work/db" --pg-listen "127.0.0.1:$PORT" \
    --http-listen 127.0.0.1:0 --log-level warn &
  lw_pid=$!
  for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p "$PORT" && return; sleep 0.1; done
}

start ""
pgbench -h 127.0.0.1 -p "$PORT" -U postgres -i -q -s 1 postgres >/dev/null 2>&1
kill "$lw_pid"; wait "$lw_pid" 2>/dev/null || true

printf '%-10s %-34s %9s %11s %13s %12s\n' litewire run tps latency_ms ctx_sw_per_tx cpu_us_per_tx
for where in all one; do
  if [ "$where" = all ]; then start ""; client=(); else start 1; client=(taskset -c 0); fi
  for args in "-S -M simple -c 1" "-S -M prepared -c 1" "-S -M prepared -c 8" "-M prepared -c 8"; do
    perf stat -x, -e context-switches,task-clock -p "$lw_pid" -o "$work/stat" -- sleep "$DURATION" &
    perf_pid=$!
    # shellcheck disable=SC2086
    out=$("${client[@]}" pgbench -h 127.0.0.1 -p "$PORT" -U postgres $args -j 2 -T "$DURATION" postgres 2>&1)
    wait "$perf_pid" || true
    tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$out")
    tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
    lat=$(sed -n 's/^latency average = \([0-9.]*\).*/\1/p' <<<"$out")
    ctx=$(awk -F, '/context-switches/ {print $1}' "$work/stat")
    cpu=$(awk -F, '/task-clock/ {print $1}' "$work/stat")
    printf '%-10s %-34s %9.0f %11s %13.1f %12.0f\n' "$where" "$args" "$tps" "$lat" \
      "$(awk -v a="$ctx" -v b="$tx" 'BEGIN {print a / b}')" "$(awk -v a="$cpu" -v b="$tx" 'BEGIN {print a * 1000 / b}')"
  done
  kill "$lw_pid"; wait "$lw_pid" 2>/dev/null || true
done
