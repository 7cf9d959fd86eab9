#!/usr/bin/env bash
# litewire's resident memory (VmRSS, peak over the run) with 100 Postgres
# connections held open and with 100 concurrent HTTP clients, in both cache modes.
# "idle" connections connect and wait; "used" ones first run one query, which pins a
# pooled SQLite connection (and its thread) to each session.
# Usage: bench/memory.sh   (env: HOLD=8 PORT=28090)
set -euo pipefail
cd "$(dirname "$0")/.."
HOLD=${HOLD:-8}
PG_PORT=${PORT:-28090}
HTTP_PORT=$((PG_PORT + 1))
command -v hey >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hey >/dev/null; }

unset LIBSQLITE3_FLAGS
cargo build --release --quiet --bin litewire
work=$(mktemp -d)
trap 'kill $lw_pid 2>/dev/null || true; rm -rf "$work"' EXIT

rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
peak_during() { # pid seconds -> peak VmRSS in kB while the load runs
  local peak=0 now
  for _ in $(seq $(($2 * 10))); do
    now=$(rss_kb "$1"); [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.1
  done
  echo "$peak"
}

printf '%-8s %-34s %10s\n' cache load rss_mb
for cache in shared private; do
  rm -f "$work"/db*
  target/release/litewire --db "$work/db" --cache "$cache" --pg-listen "127.0.0.1:$PG_PORT" \
    --http-listen "127.0.0.1:$HTTP_PORT" --log-level warn 2>"$work/log" &
  lw_pid=$!
  for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p "$PG_PORT" && break; sleep 0.1; done
  curl -fs -d '{"statements": ["CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)", "INSERT INTO t VALUES (1, '"'a'"')"]}' \
    "http://127.0.0.1:$HTTP_PORT/" >/dev/null
  printf '%-8s %-34s %10.1f\n' "$cache" "started" "$(awk -v k="$(rss_kb $lw_pid)" 'BEGIN {print k / 1024}')"

  printf '\\sleep %s s\n' "$HOLD" >"$work/idle.sql"
  printf 'SELECT 1;\n\\sleep %s s\n' "$HOLD" >"$work/used.sql"
  for kind in idle used; do
    pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -c 100 -j 2 -t 1 -f "$work/$kind.sql" postgres >/dev/null 2>&1 &
    load=$!
    sleep 1
    peak=$(peak_during "$lw_pid" $((HOLD - 2)))
    wait "$load" || true
    printf '%-8s %-34s %10.1f\n' "$cache" "100 postgres connections, $kind" "$(awk -v k="$peak" 'BEGIN {print k / 1024}')"
  done

  hey -z "${HOLD}s" -c 100 -m POST -d '{"statements": [{"q": "SELECT * FROM t"}]}' "http://127.0.0.1:$HTTP_PORT/" >/dev/null &
  load=$!
  sleep 1
  peak=$(peak_during "$lw_pid" $((HOLD - 2)))
  wait "$load" || true
  printf '%-8s %-34s %10.1f\n' "$cache" "100 concurrent HTTP clients" "$(awk -v k="$peak" 'BEGIN {print k / 1024}')"
  kill "$lw_pid"; wait "$lw_pid" 2>/dev/null || true
done
