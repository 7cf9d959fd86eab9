#!/usr/bin/env bash
# The HTTP seed experiment: `hey` POSTs {"statements": [{"q": "SELECT * FROM t"}]} for
# DURATION seconds at 1, 10 and 100 clients against
#   a/b. litewire, --cache shared and --cache private;
#   c.   litewire built with SQLite's memory statistics on (LIBSQLITE3_FLAGS set in the
#        shell overrides .cargo/config.toml; own target dir), both cache modes;
#   d.   a ceiling: the same axum stack answering the same JSON without SQLite
#        (bench/rust/ceiling.rs);
#   e.   Hrana: the same query as a libsql client sends it, an `execute` + `close`
#        pipeline on POST /v2/pipeline, against the same server run as a/b.
# Prints req/s, p50 and p99 for each, and litewire as a percentage of the ceiling
# (Hrana also as a percentage of the legacy body on the same server);
# writes the same figures to CSV (variant,clients,req_s,p50_ms,p99_ms) and draws them
# with bench/http-chart.sh into a PNG beside it.
# Usage: bench/http.sh   (env: DURATION=15 CLIENTS="1 10 100" PORT=28080
#                              CSV=docs/http-matrix.csv LITEWIRE_ARGS=
#                              CEILING_THREAD_PER_CORE=0 MEMSTATUS_ON=1 ROUNDS=1
#                              BIN=target/release/litewire)
# BIN=path measures a litewire binary built already (another commit's, for a
# before/after pair of runs); the ceiling is built from this tree.
# ROUNDS=n measures the legacy body and Hrana n times each on the same server,
# taking turns, and reports their medians.
# MEMSTATUS_ON=0 leaves out c (no second build), for a quick run of the others.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-15}
CLIENTS=${CLIENTS:-"1 10 100"}
PORT=${PORT:-28080}
CSV=${CSV:-docs/http-matrix.csv}
# Extra flags for every litewire run, e.g. --thread-per-core (then also
# CEILING_THREAD_PER_CORE=1, so that the ceiling serves the same way).
LITEWIRE_ARGS=${LITEWIRE_ARGS:-}
export CEILING_THREAD_PER_CORE=${CEILING_THREAD_PER_CORE:-0}
MEMSTATUS_ON=${MEMSTATUS_ON:-1}
ROUNDS=${ROUNDS:-1}
BODY='{ "statements": [{"q" : "SELECT * FROM t"}] }'
HRANA_BODY='{"requests": [{"type": "execute", "stmt": {"sql": "SELECT * FROM t"}}, {"type": "close"}]}'

command -v hey >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hey >/dev/null; }

unset LIBSQLITE3_FLAGS
if [ -n "${BIN:-}" ]; then
  cargo build --release --quiet --example ceiling
else
  BIN=target/release/litewire
  cargo build --release --quiet --bin litewire --example ceiling
fi
variants=("memstatus=0 shared $BIN" "memstatus=0 private $BIN")
if [ "$MEMSTATUS_ON" = 1 ]; then
  LIBSQLITE3_FLAGS="SQLITE_DEFAULT_MEMSTATUS=1 -USQLITE_ENABLE_MEMORY_MANAGEMENT" CARGO_TARGET_DIR=target/memstatus-on \
    cargo build --release --quiet --bin litewire
  variants+=("memstatus=1 shared target/memstatus-on/release/litewire"
             "memstatus=1 private target/memstatus-on/release/litewire")
fi

work=$(mktemp -d)
server_pid=
stop() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=
}
trap 'stop; rm -rf "$work"' EXIT

wait_http() {
  for _ in $(seq 100); do
    curl -fs -o /dev/null -d "$BODY" "http://127.0.0.1:$PORT/" && return
    sleep 0.1
  done
  echo "server did not come up" >&2; exit 1
}

start_litewire() { # binary cache
  # shellcheck disable=SC2086 # LITEWIRE_ARGS is a list of flags
  "$1" --db "$work/seed.db" --cache "$2" --http-listen "127.0.0.1:$PORT" $LITEWIRE_ARGS \
    --pg-listen 127.0.0.1:0 --log-level warn 2>>"$work/server.log" &
  server_pid=$!
  wait_http
}

# The seed table, and the exact answer litewire gives (the ceiling answers the same).
"$BIN" --db "$work/seed.db" --http-listen "127.0.0.1:$PORT" --pg-listen 127.0.0.1:0 \
  --log-level warn 2>>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
values=$(seq 1 10 | sed "s/.*/(&, 'value &')/" | paste -sd, -)
curl -fs -d "{\"statements\": [\"CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)\", \"INSERT INTO t VALUES $values\"]}" \
  "http://127.0.0.1:$PORT/" >/dev/null
answer=$(curl -fs -d "$BODY" "http://127.0.0.1:$PORT/")
stop

measure() { # label clients [path body] -> "label clients rps p50 p99"
  local out
  out=$(hey -z "${DURATION}s" -c "$2" -m POST -T "text/html" -d "${4:-$BODY}" "http://127.0.0.1:$PORT${3:-/}")
  local rps p50 p99 errors
  rps=$(awk '/Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(awk "/ 50% in / {print \$3}" <<<"$out")
  p99=$(awk "/ 99% in / {print \$3}" <<<"$out")
  errors=$(grep -A5 "Status code distribution" <<<"$out" | grep -v "\[200\]" | grep -c "\[" || true)
  [ "$errors" = 0 ] || { echo "non-200 answers for $1 at $2 clients:" >&2; echo "$out" >&2; exit 1; }
  echo "$1 $2 $rps $p50 $p99"
}

medians() { # file of "label clients rps p50 p99" rows -> one row per label, each column's median
  awk '
    function median(list,   a, k, i, j, t) {
      k = split(list, a, " ")
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
      return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
    }
    !($1 in seen) { seen[$1] = 1; order[++n] = $1; clients[$1] = $2 }
    { for (f = 3; f <= 5; f++) v[$1, f] = v[$1, f] " " $f }
    END { for (i = 1; i <= n; i++) { l = order[i]; print l, clients[l], median(v[l, 3]), median(v[l, 4]), median(v[l, 5]) } }' "$1"
}

results="$work/results"
for c in $CLIENTS; do
  target/release/examples/ceiling "127.0.0.1:$PORT" "$answer" &
  server_pid=$!
  wait_http
  measure ceiling "$c" >>"$results"
  stop
  for variant in "${variants[@]}"; do
    read -r mem cache bin <<<"$variant"
    start_litewire "$bin" "$cache"
    if [ "$mem" = memstatus=0 ]; then
      # The legacy body and Hrana on the same server, ROUNDS times each, taking
      # turns to go first; their medians are what is compared.
      for round in $(seq "$ROUNDS"); do
        if [ $((round % 2)) = 1 ]; then
          measure "litewire/$cache/$mem" "$c" >>"$work/rounds"
          measure "hrana/$cache/$mem" "$c" /v2/pipeline "$HRANA_BODY" >>"$work/rounds"
        else
          measure "hrana/$cache/$mem" "$c" /v2/pipeline "$HRANA_BODY" >>"$work/rounds"
          measure "litewire/$cache/$mem" "$c" >>"$work/rounds"
        fi
      done
      medians "$work/rounds" >>"$results"
      rm "$work/rounds"
    else
      measure "litewire/$cache/$mem" "$c" >>"$results"
    fi
    stop
  done
done

printf '%-28s %7s %10s %9s %9s %10s %9s\n' server clients req/s p50_ms p99_ms %ceiling %legacy
awk '
  $1 == "ceiling" { ceiling[$2] = $3 }
  $1 ~ /^litewire\// { legacy[substr($1, 10) " " $2] = $3 }
  { rows[NR] = $0 }
  END {
    for (i = 1; i <= NR; i++) {
      split(rows[i], f, " ")
      pct = (f[1] == "ceiling") ? "100" : sprintf("%.0f", 100 * f[3] / ceiling[f[2]])
      key = substr(f[1], 7) " " f[2]
      vs = (f[1] ~ /^hrana\// && legacy[key] > 0) ? sprintf("%.0f", 100 * f[3] / legacy[key]) : ""
      printf "%-28s %7s %10.0f %9.2f %9.2f %10s %9s\n", f[1], f[2], f[3], f[4] * 1000, f[5] * 1000, pct, vs
    }
  }' "$results"
echo "medians of $ROUNDS round(s) for the legacy body and Hrana; hey -z ${DURATION}s -m POST -T text/html -d '$BODY' (Hrana: -d '$HRANA_BODY' .../v2/pipeline); $(nproc) CPUs; litewire flags: ${LITEWIRE_ARGS:-(none)}; ceiling thread per core: $CEILING_THREAD_PER_CORE"

# The same rows as CSV, latencies in milliseconds, and the chart drawn from it.
awk 'BEGIN { print "variant,clients,req_s,p50_ms,p99_ms" }
     { printf "%s,%s,%.0f,%.2f,%.2f\n", $1, $2, $3, $4 * 1000, $5 * 1000 }' "$results" >"$CSV"
bash bench/http-chart.sh "$CSV"
