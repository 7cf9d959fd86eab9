#!/usr/bin/env bash
# SQLite's memory statistics in isolation (benches/memstatus.rs): threads that each
# open a connection, run one point SELECT and close it, back to back, with SQLite built
#   MEMSTATUS=0  as litewire ships (.cargo/config.toml), and
#   MEMSTATUS=1  LIBSQLITE3_FLAGS set in the shell, which overrides .cargo/config.toml,
#                into its own target dir (as bench/http.sh builds it).
# For each thread count the two builds run one after the other. The binary reads its
# variant back from the SQLite it linked and labels its rows with it; this script only
# files the rows under those labels, and stops if a build reports the wrong one.
# Usage: bench/memstatus.sh   (env: THREADS="1 2 4 8" SECS=2 RUNS=5)
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-"1 2 4 8"}
export MEMSTATUS_SECS=${SECS:-2} MEMSTATUS_RUNS=${RUNS:-5}

bench_0() { (unset LIBSQLITE3_FLAGS; cargo bench --quiet --bench memstatus "$@"); }
bench_1() {
  LIBSQLITE3_FLAGS="SQLITE_DEFAULT_MEMSTATUS=1" CARGO_TARGET_DIR=target/memstatus-on \
    cargo bench --quiet --bench memstatus "$@"
}
bench_0 --no-run
bench_1 --no-run

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in $THREADS; do
  for m in 0 1; do
    MEMSTATUS_THREADS=$t "bench_$m" >"$work/out"
    # What the build reports about its SQLite: version, compile option, allocation counter.
    [ -s "$work/notes.$m" ] || grep '^# SQLite' "$work/out" | sed "s/^#/# MEMSTATUS=$m build:/" >"$work/notes.$m"
    row=$(grep '^memstatus=' "$work/out")
    [ "${row%% *}" = "memstatus=$m" ] || { echo "the MEMSTATUS=$m build reports: $row" >&2; exit 1; }
    echo "$row" >>"$work/rows"
  done
done

cat "$work/notes.0" "$work/notes.1"
printf '%7s %14s %14s %8s\n' threads memstatus=0 memstatus=1 '0 / 1'
for t in $THREADS; do
  awk -v t="$t" '$2 == t { rps[$1] = $3 }
    END { printf "%7s %14.0f %14.0f %8.2f\n", t, rps["memstatus=0"], rps["memstatus=1"],
                 rps["memstatus=0"] / rps["memstatus=1"] }' "$work/rows"
done
echo "requests/s (open + SELECT v FROM t WHERE id = ? + close), medians of $MEMSTATUS_RUNS runs of ${MEMSTATUS_SECS} s; $(nproc) CPUs"
