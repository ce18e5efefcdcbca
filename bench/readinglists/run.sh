#!/usr/bin/env bash
# Reading-list benchmark (issue 7), release build:
#  1. import a generated 20,000-row Goodreads library export through the Goodreads plugin, as `shelf lists connect
#     goodreads --set file=...` + `shelf lists pull` do (target: under 1 s), with the CSV parse time reported apart;
#  2. match 20,000 wishes against a generated 50,000-entry catalog already parsed into the library database, as the
#     wish-list check of `shelf sync` does (target: under 1 s).
# Prints figures; it is not a test and never fails on a slow result.
#
#   bash bench/readinglists/run.sh [ROWS [WISHES [CATALOG]]]     (defaults 20000 20000 50000)
#   BENCH_BUILD=DIR    the scratch path for the release build (default $BENCH_WORK/build)
#   BENCH_RUNS=N       runs per figure, the best reported (default 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rows=${1:-20000}
wishes=${2:-20000}
catalog=${3:-50000}
runs=${BENCH_RUNS:-3}
work=${BENCH_WORK:-/tmp/shelf-bench-lists}
build=${BENCH_BUILD:-$work/build}
mkdir -p "$work"

echo "== building shelf-lists-bench and the Goodreads plugin (release)"
(cd "$root" && swift build -c release --scratch-path "$build" --product shelf-goodreads >/dev/null \
             && swift build -c release --scratch-path "$build" --product shelf-lists-bench >/dev/null)
bench="$build/release/shelf-lists-bench"
[ -f "$build/release/libshelf-goodreads.so" ] || { echo "no libshelf-goodreads.so beside $bench" >&2; exit 69; }

echo
echo "== 1. Import a generated ${rows}-row Goodreads library export (31 columns, quoted fields, =\"...\" ISBNs, multi-line reviews)"
"$bench" generate-csv "$rows" "$work/goodreads_library_export.csv"
echo "   file: $(wc -c < "$work/goodreads_library_export.csv") bytes"
"$bench" import "$runs" "$work/goodreads_library_export.csv" | sed 's/^/   /'

echo
echo "== 2. Match ${wishes} wishes against a generated ${catalog}-entry catalog in the library database"
"$bench" match "$runs" "$wishes" "$catalog" | sed 's/^/   /'
