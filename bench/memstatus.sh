#!/usr/bin/env bash
# SQLite's memory statistics in isolation (bench/rust/memstatus.rs): threads that each
# open a connection, run one point SELECT and close it, back to back, with SQLite built
#   MEMSTATUS=0  as litewire ships (.cargo/config.toml), and
#   MEMSTATUS=1  LIBSQLITE3_FLAGS set in the shell, which overrides .cargo/config.toml,
#                into its own target dir (as bench/http.sh builds it).
# Each run is one SECS-second measurement; the two builds alternate run by run, so that
# load from elsewhere on the machine falls on both alike, and the table shows medians of
# RUNS runs. The binary reads its variant back from the SQLite it linked and labels its
# rows with it; this script only files the rows under those labels, and stops if a
# build reports the wrong one.
# Usage: bench/memstatus.sh   (env: THREADS="1 2 4 8" SECS=2 RUNS=5)
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-"1 2 4 8"}
RUNS=${RUNS:-5}
export MEMSTATUS_SECS=${SECS:-2} MEMSTATUS_RUNS=1

bench_0() { (unset LIBSQLITE3_FLAGS; cargo bench --quiet --bench memstatus "$@"); }
bench_1() {
  LIBSQLITE3_FLAGS="SQLITE_DEFAULT_MEMSTATUS=1 -USQLITE_ENABLE_MEMORY_MANAGEMENT" CARGO_TARGET_DIR=target/memstatus-on \
    cargo bench --quiet --bench memstatus "$@"
}
bench_0 --no-run
bench_1 --no-run

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for _ in $(seq "$RUNS"); do
  for t in $THREADS; do
    for m in 0 1; do
      MEMSTATUS_THREADS=$t "bench_$m" >"$work/out"
      # What the build says about its SQLite: version, compile option, allocation counter.
      [ -s "$work/notes.$m" ] || grep '^# SQLite' "$work/out" | sed "s/^#/# MEMSTATUS=$m build:/" >"$work/notes.$m"
      row=$(grep '^memstatus=' "$work/out")
      [ "${row%% *}" = "memstatus=$m" ] || { echo "the MEMSTATUS=$m build reports: $row" >&2; exit 1; }
      echo "$row" >>"$work/rows"
    done
  done
done

stats() { # label threads -> "median min max" req/s of that label's runs
  awk -v l="$1" -v t="$2" '$1 == l && $2 == t { print $3 }' "$work/rows" | sort -n |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'
}
cat "$work/notes.0" "$work/notes.1"
printf '%7s %14s %14s %8s   %-15s %s\n' threads memstatus=0 memstatus=1 '0 / 1' 'range 0' 'range 1'
for t in $THREADS; do
  read -r off off_min off_max <<<"$(stats memstatus=0 "$t")"
  read -r on on_min on_max <<<"$(stats memstatus=1 "$t")"
  awk -v t="$t" -v a="$off" -v b="$on" -v r0="$off_min-$off_max" -v r1="$on_min-$on_max" \
    'BEGIN { printf "%7s %14.0f %14.0f %8.2f   %-15s %s\n", t, a, b, a / b, r0, r1 }'
done
echo "requests/s (open + SELECT v FROM t WHERE id = ? + close), medians of $RUNS runs of ${MEMSTATUS_SECS} s; $(nproc) CPUs"
