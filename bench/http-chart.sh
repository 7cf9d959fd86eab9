#!/usr/bin/env bash
# Draws req/s against concurrent clients (log scale) from the CSV that bench/http.sh
# writes (header: variant,clients,req_s,p50_ms,p99_ms), one line per variant, as a PNG
# next to the CSV unless a second argument names it. Needs gnuplot (installed with apt
# if missing, as gnuplot-nox: no X11).
# Usage: bench/http-chart.sh docs/http-matrix.csv [docs/http-matrix.png]
set -euo pipefail
csv=${1:?usage: bench/http-chart.sh CSV [PNG]}
png=${2:-${csv%.csv}.png}

command -v gnuplot >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends gnuplot-nox fonts-dejavu-core >/dev/null; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One data file per variant ("clients req_s", sorted by clients), in order of first
# appearance; variants.txt maps each file to its variant name.
awk -F, -v dir="$work" '
  NR == 1 { next }
  !($1 in file) { file[$1] = dir "/" ++n ".dat"; print n, $1 > (dir "/variants.txt") }
  { print $2, $3 > file[$1] }
' "$csv"
[ -s "$work/variants.txt" ] || { echo "no rows in $csv" >&2; exit 1; }

# The ceiling in black; litewire coloured by cache mode, dotted with MEMSTATUS=1:
# "litewire/shared/memstatus=0" -> "litewire shared, MEMSTATUS=0".
plots=()
while read -r n variant; do
  sort -n -o "$work/$n.dat" "$work/$n.dat"
  title=$(sed -E 's|^(litewire\|hrana)/([a-z]+)/memstatus=([01])$|\1 \2, MEMSTATUS=\3|' <<<"$variant")
  color='#555555' dash=1 point=7
  case $variant in
    ceiling) title="ceiling (same HTTP stack, no SQLite)" color=black dash=2 ;;
    *shared*) color='#1f6fb4' ;;
    *private*) color='#d0421b' ;;
  esac
  case $variant in *memstatus=1*) dash=3 point=6 ;; hrana/*) dash=4 point=5 ;; esac
  style="linewidth 2 linecolor rgb '$color' dashtype $dash pointtype $point"
  plots+=("'$work/$n.dat' using 1:2 title '$title' with linespoints $style")
done <"$work/variants.txt"

{
  echo "set terminal pngcairo size 900,600 font 'DejaVu Sans,11'"
  echo "set output '$png'"
  echo "set datafile separator whitespace"
  echo "set title 'bench/http.sh: one SELECT of 10 rows per POST'"
  echo "set xlabel 'concurrent clients'"
  echo "set ylabel 'requests / s'"
  echo "set logscale x"
  echo "set xtics (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)"
  echo "set yrange [0:*]"
  echo "set offsets graph 0.04, graph 0.04, graph 0.05, 0"
  echo "set grid"
  echo "set key below maxrows 3 width 2"
  printf 'plot '
  (IFS=,; echo "${plots[*]}")
} >"$work/plot.gp"
gnuplot "$work/plot.gp"
echo "wrote $png"
