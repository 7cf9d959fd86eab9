#!/usr/bin/env bash
# The short path in instructions, before and after a change: REV's release binary
# and the working tree's, each run under callgrind, counting the server's
# instructions per pgbench -S transaction (prepared, 1 client) and per legacy
# HTTP request (the seed query of bench/http.sh, 1 client). Instruction counts
# barely move with the machine's load, unlike times: this says what a change
# costs where a timed benchmark on a shared machine cannot, and which
# functions the difference is in. Needs valgrind (apt-get install valgrind).
# Usage: bench/instructions.sh REV   (env: N=20000 operations counted, TOP=15
#                                     functions shown, BEFORE_BIN=: REV's binary,
#                                     AFTER_BIN=: the working tree's, built already,
#                                     MODE=prepared: pgbench's -M; simple parses
#                                     every statement's text; SCRIPT=FILE: pgbench
#                                     runs FILE instead of -S, after the SQL of
#                                     FILE.setup if there is one)
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:?usage: bench/instructions.sh REV}
N=${N:-20000}
TOP=${TOP:-15}
PG_PORT=${PG_PORT:-27532}
HTTP_PORT=${HTTP_PORT:-27180}
MODE=${MODE:-prepared}

work=$(mktemp -d)
# shellcheck source=bench/lib/short-path.sh
. bench/lib/short-path.sh
need hey hey
need valgrind valgrind
trap 'stop; rm -rf "$work"' EXIT

if [ -n "${AFTER_BIN:-}" ]; then
  cp "$AFTER_BIN" "$work/after"
else
  cargo build --release --quiet --bin litewire
  cp target/release/litewire "$work/after"
fi
build_rev "$REV" "$work/before"

serve() { # binary [wrapper...]: starts it on the bench ports, waits for /health
  local binary=$1
  shift
  "$@" "$binary" --db "$work/db" --pg-listen "127.0.0.1:$PG_PORT" --http-listen "127.0.0.1:$HTTP_PORT" \
    --log-level warn 2>>"$work/server.log" &
  server=$!
  for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$HTTP_PORT/health" && break; sleep 0.2; done
}

SCRIPT=${SCRIPT:-}
if [ -n "$SCRIPT" ]; then workload=(-f "$SCRIPT"); else workload=(-S); fi
pgbench_run() { # transactions [clients]
  pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n "${workload[@]}" -M "$MODE" -c "${2:-1}" -t "$1" postgres >/dev/null 2>&1
}
http_run() { # requests [clients]
  hey -n "$1" -c "${2:-1}" -m POST -T text/html -d "$BODY" "http://127.0.0.1:$HTTP_PORT/" >/dev/null
}

measure() { # name binary: dumps NAME-{pg,http}.{1,2}
  local name=$1 binary=$2 kind
  rm -f "$work"/db*
  serve "$binary"
  seed
  if [ -f "$SCRIPT.setup" ]; then
    psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -X -q -v ON_ERROR_STOP=1 -f "$SCRIPT.setup" postgres
  fi
  stop
  for kind in pg http; do
    serve "$binary" valgrind --tool=callgrind --callgrind-out-file="$work/$name-$kind.%p"
    # Warm, on several connections at once: every pooled connection a measured
    # run may get has its statements prepared and its catalog tables made.
    # The pauses let the work a run leaves behind (its sessions' connections
    # reset as they return to the pool) land before the counters are read.
    "${kind/pg/pgbench}_run" 200 4
    # And on one: what a one-client run does once (a connection of its own
    # prepared, its catalog made) lands here too, not in the first measured
    # run, whose count is subtracted.
    "${kind/pg/pgbench}_run" 200
    sleep 2
    callgrind_control -z "$server" >/dev/null
    "${kind/pg/pgbench}_run" 1000
    sleep 2
    callgrind_control -d "$server" >/dev/null
    "${kind/pg/pgbench}_run" $((1000 + N))
    sleep 2
    callgrind_control -d "$server" >/dev/null
    mv "$work/$name-$kind.$server.1" "$work/$name-$kind.1"
    mv "$work/$name-$kind.$server.2" "$work/$name-$kind.2"
    stop
  done
  echo "$name measured" >&2
}

measure before "$work/before"
measure after "$work/after"
for kind in pg http; do
  case $kind in
    pg) echo "== per pgbench ${SCRIPT:--S} -M $MODE transaction" ;;
    http) echo "== per legacy HTTP request" ;;
  esac
  python3 bench/lib/per-operation.py "$N" "$work/before-$kind.1" "$work/before-$kind.2" \
    "$work/after-$kind.1" "$work/after-$kind.2" "$TOP"
done
echo "before: $(git rev-parse --short "$REV"), after: $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'); $N operations each"
