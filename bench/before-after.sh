#!/usr/bin/env bash
# The short-statement path, before and after a change: builds REV (a commit, in a
# temporary worktree, its own target dir) and the working tree, then runs on each,
# alternating ROUNDS times:
#   - pgbench -S -M prepared at 1 and 8 clients (scale 1, loopback);
#   - POST / with the seed query (`SELECT * FROM t`, 10 rows) at 1 and 100 clients
#     (hey, as bench/http.sh).
# A third server, the working tree with --thread-per-core, runs beside them (TPC=0
# leaves it out): the serving mode's question asked the same way. TPCB=1 adds
# pgbench's default (tpcb-like) script in prepared mode at 1 and 8 clients: the
# write path, transactions included.
# Prints the median of each figure per server and each as a percentage of REV's.
# Usage: bench/before-after.sh REV   (env: ROUNDS=3 DURATION=10 TPC=1 TPCB=0
#                                     PG_PORT=27432 HTTP_PORT=27080
#                                     BEFORE_BIN=: REV's binary, already built)
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:?usage: bench/before-after.sh REV}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
TPC=${TPC:-1}
TPCB=${TPCB:-0}
PG_PORT=${PG_PORT:-27432}
HTTP_PORT=${HTTP_PORT:-27080}

work=$(mktemp -d)
# shellcheck source=bench/lib/short-path.sh
. bench/lib/short-path.sh
need hey hey
cleanup() {
  stop
  rm -rf "$work"
}
trap cleanup EXIT

cargo build --release --quiet --bin litewire
cp target/release/litewire "$work/after"
build_rev "$REV" "$work/before"

servers=("before $work/before" "after $work/after")
[ "$TPC" = 1 ] && servers+=("after+tpc $work/after --thread-per-core")

start() { # binary flags...
  rm -f "$work"/db*
  "$@" --db "$work/db" --pg-listen "127.0.0.1:$PG_PORT" --http-listen "127.0.0.1:$HTTP_PORT" \
    --log-level warn 2>>"$work/server.log" &
  server=$!
  for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$HTTP_PORT/health" && break; sleep 0.1; done
  seed
}

results="$work/results"
for round in $(seq "$ROUNDS"); do
  # Alternate which server goes first, so that drift on the machine falls on each.
  order=("${servers[@]}")
  if [ $((round % 2)) = 0 ]; then
    mapfile -t order < <(printf '%s\n' "${servers[@]}" | tac)
  fi
  for entry in "${order[@]}"; do
    read -r name binary flags <<<"$entry"
    # shellcheck disable=SC2086 # flags is a list
    start "$binary" $flags
    for c in 1 8; do
      tps=$(pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -S -M prepared -c "$c" -j "$((c < 2 ? 1 : 2))" \
        -T "$DURATION" postgres 2>&1 | awk '/^tps/ {print $3; exit}')
      echo "$name pgbench-S-prepared-c$c $tps" >>"$results"
    done
    if [ "$TPCB" = 1 ]; then
      for c in 1 8; do
        tps=$(pgbench -h 127.0.0.1 -p "$PG_PORT" -U postgres -n -M prepared -c "$c" -j "$((c < 2 ? 1 : 2))" \
          -T "$DURATION" postgres 2>&1 | awk '/^tps/ {print $3; exit}')
        echo "$name pgbench-tpcb-prepared-c$c $tps" >>"$results"
      done
    fi
    for c in 1 100; do
      rps=$(hey -z "${DURATION}s" -c "$c" -m POST -T text/html -d "$BODY" "http://127.0.0.1:$HTTP_PORT/" |
        awk '/Requests\/sec:/ {print $2}')
      echo "$name http-legacy-c$c $rps" >>"$results"
    done
    stop
    echo "round $round: $name done" >&2
  done
done

printf '%-28s %-10s %10s %9s  %s\n' figure server median %before "each round"
awk '
  { key = $2 " " $1; values[key] = values[key] " " $3; if (!($2 in seen)) { seen[$2] = 1; figures[++n] = $2 }
    if (!($1 in named)) { named[$1] = 1; names[++m] = $1 } }
  function median(list,   a, k, i, j, t) {
    k = split(list, a, " ")
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    for (f = 1; f <= n; f++) {
      base = median(values[figures[f] " before"])
      for (s = 1; s <= m; s++) {
        med = median(values[figures[f] " " names[s]])
        printf "%-28s %-10s %10.0f %8.0f%%  %s\n", figures[f], names[s], med, 100 * med / base, values[figures[f] " " names[s]]
      }
    }
  }' "$results"
echo "before: $(git rev-parse --short "$REV"), after: $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'); $ROUNDS rounds of ${DURATION}s; $(nproc) CPUs"
