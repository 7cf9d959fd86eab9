#!/usr/bin/env bash
# Long statements against short ones: the latency of `GET /health` (hey, one client)
# and of a point SELECT on its own connection (pgbench -S -M prepared, one client),
# first with nothing else running, then while LONG never-ending statements run (one
# per CPU by default, alternately over HTTP and PostgreSQL). Prints p50 and p99 of
# each, and how many requests did not answer at all. (litewire stops an HTTP request's
# statements after --http-timeout-ms, 30 s by default: keep 2 * DURATION below it, or
# pass LITEWIRE_ARGS=--http-timeout-ms=0.)
# Usage: bench/stall.sh   (env: DURATION=10 LONG=$(nproc) LITEWIRE_ARGS=
#                                PG_PORT=26432 HTTP_PORT=26080 BIN=target/release/litewire)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
LONG=${LONG:-$(nproc)}
LITEWIRE_ARGS=${LITEWIRE_ARGS:-}
PG_PORT=${PG_PORT:-26432}
HTTP_PORT=${HTTP_PORT:-26080}
if [ -z "${BIN:-}" ]; then
  unset LIBSQLITE3_FLAGS
  cargo build --release --quiet --bin litewire
  BIN=target/release/litewire
fi
ENDLESS="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# shellcheck disable=SC2086 # LITEWIRE_ARGS is a list of flags
"$BIN" --db "$work/stall.db" --pg-listen "127.0.0.1:$PG_PORT" --http-listen "127.0.0.1:$HTTP_PORT" \
  --log-level warn $LITEWIRE_ARGS 2>"$work/server.log" &
server=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$HTTP_PORT/health" && break; sleep 0.1; done
pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -i -s 1 -q postgres >/dev/null 2>&1

percentiles() { # file of latencies in ms, one a line
  sort -n "$1" | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "no answers"; exit }
    printf "p50 %.2f ms  p99 %.2f ms  (%d answers)", v[int(NR * 0.5) + (NR * 0.5 > int(NR * 0.5))], v[int(NR * 0.99) + (NR * 0.99 > int(NR * 0.99))], NR }'
}

measure() { # label
  hey -z "${DURATION}s" -c 1 -t 5 -o csv "http://127.0.0.1:$HTTP_PORT/health" >"$work/hey.csv" 2>/dev/null || true
  awk -F, 'NR > 1 && $7 == 200 { print $1 * 1000 }' "$work/hey.csv" >"$work/health.ms"
  failed=$(awk -F, 'NR > 1 && $7 != 200' "$work/hey.csv" | wc -l)
  rm -f "$work"/lat*
  timeout $((DURATION + 30)) pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -S -M prepared -c 1 \
    -T "$DURATION" --log --log-prefix="$work/lat" postgres >/dev/null 2>&1 || true
  # No log at all when pgbench could not even connect: "no answers".
  { cat "$work"/lat* 2>/dev/null || true; } | awk '{ print $3 / 1000 }' >"$work/select.ms"
  printf '%-32s /health: %s, %s failed\n' "$1" "$(percentiles "$work/health.ms")" "$failed"
  printf '%-32s point SELECT: %s\n' "" "$(percentiles "$work/select.ms")"
}

measure "nothing else running"
for i in $(seq "$LONG"); do
  if [ $((i % 2)) -eq 1 ]; then
    curl -s -o /dev/null -d "{\"statements\": [\"$ENDLESS\"]}" "http://127.0.0.1:$HTTP_PORT/" &
  else
    psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -X -q -c "$ENDLESS" postgres >/dev/null 2>&1 &
  fi
  pids+=($!)
done
sleep 1
measure "$LONG endless statements"
