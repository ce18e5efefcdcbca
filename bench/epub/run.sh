#!/usr/bin/env bash
# EPUB benchmark: the shelf EPUB plugins (through the C ABI, release build) against ebooklib
# (+ lxml) and, where installed, calibre's ebook-meta, on the same corpus in the same run; and
# `shelf info` (the command, release build) as a process against ebook-meta.
# Prints figures and ratios (each the best of BENCH_RUNS runs, 5 unless set, for both sides alike: the
# machine may be shared); it is not a test and never fails on a slow result.
#
#   bash bench/epub/run.sh [CORPUS_DIR]        (default ../shared/corpus/epub)
# Peers: apt-get install python3-ebooklib python3-lxml [calibre]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${1:-$root/../shared/corpus/epub}
work=${BENCH_WORK:-/tmp/shelf-bench-epub}
build=${BENCH_BUILD:-$work/build}   # an existing release scratch path may be reused
mkdir -p "$work"
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 66; }
py=/usr/bin/python3
runs=${BENCH_RUNS:-5}

echo "== building (release)"
(cd "$root" && swift build -c release --scratch-path "$build" --product shelf-epub3 >/dev/null && \
  swift build -c release --scratch-path "$build" --product shelf-epub2 >/dev/null)
# The command itself, for `shelf info` as a process; the rest of the benchmark does without it.
(cd "$root" && swift build -c release --scratch-path "$build" --product shelf >/dev/null) || echo "   (shelf did not build: no 'shelf info' figure)"
shelf="$build/release/shelf"
epub3="$build/release/libshelf-epub3.so"
epub2="$build/release/libshelf-epub2.so"
cc -O2 -I"$root/Sources/PluginAPI/include" "$here/driver.c" -o "$work/driver" -ldl
echo 'print("")' > "$work/empty.swift"; swiftc -O "$work/empty.swift" -o "$work/empty" 2>/dev/null

books=("$corpus"/*.epub)
largest="$corpus/epub2-feedbooks-memoires-outre-tombe-fr.epub"
moby="$corpus/epub2-feedbooks-moby-dick.epub"
have_peer=0; $py -c 'import ebooklib, lxml' 2>/dev/null && have_peer=1

secs() { sed -n 's/.* \([0-9.]*\) s,.*/\1/p'; }
# Best of $runs runs (the machine may be shared): prints the output line with the smallest time.
best() {
  local line best_line="" best_t=""
  for _ in $(seq "$runs"); do
    line=$("$@" 2>/dev/null | tail -1)
    t=$(echo "$line" | secs)
    if [ -z "$best_t" ] || $py -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$t" "$best_t"; then best_t=$t; best_line=$line; fi
  done
  echo "$best_line"
}
rss() { sed -n 's/.*maxrss \([0-9]*\) KB.*/\1/p'; }
ratio() { $py -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.1f}x' if b>0 else 'n/a')" "$1" "$2"; }

run_pair() {  # label, shelf command..., --, peer command...
  local label=$1; shift
  local ours=() peer=()
  while [ "$1" != "--" ]; do ours+=("$1"); shift; done; shift
  peer=("$@")
  local o p
  o=$(best "${ours[@]}")
  echo "$label"
  echo "  shelf:    $o"
  if [ $have_peer = 1 ] && [ ${#peer[@]} -gt 0 ]; then
    p=$(best "${peer[@]}")
    echo "  ebooklib: $p"
    echo "  ratio (ebooklib time / shelf time): $(ratio "$(echo "$p" | secs)" "$(echo "$o" | secs)")"
  fi
}

echo "== corpus: ${#books[@]} books"
# Each book goes to the plugin of its version, as the host's probe would route it.
v2=(); v3=()
for b in "${books[@]}"; do case $(basename "$b") in epub2-*) v2+=("$b");; *) v3+=("$b");; esac; done
o2=$(best "$work/driver" "$epub2" open "${v2[@]}"); o3=$(best "$work/driver" "$epub3" open "${v3[@]}")
ot=$($py -c "print(round($(echo "$o2" | secs) + $(echo "$o3" | secs), 4))")
echo "open whole corpus (metadata, TOC, spine)"
echo "  shelf:    epub2 $o2"; echo "            epub3 $o3"; echo "            total ${ot} s"
if [ $have_peer = 1 ]; then
  p=$(best $py "$here/peer_ebooklib.py" open "${books[@]}")
  echo "  ebooklib: $p"
  echo "  ratio (target >= 10x): $(ratio "$(echo "$p" | secs)" "$ot")"
fi

e2=$(best "$work/driver" "$epub2" extract "${v2[@]}"); e3=$(best "$work/driver" "$epub3" extract "${v3[@]}")
et=$($py -c "print(round($(echo "$e2" | secs) + $(echo "$e3" | secs), 4))")
echo "full-text extraction of the corpus"
echo "  shelf:    epub2 $e2"; echo "            epub3 $e3"; echo "            total ${et} s"
if [ $have_peer = 1 ]; then
  p=$(best $py "$here/peer_ebooklib.py" extract "${books[@]}")
  echo "  ebooklib+lxml: $p"
  echo "  ratio (target >= 3x): $(ratio "$(echo "$p" | secs)" "$et")"
fi

echo "info on the largest book as a process (median of 10 runs each; hyperfine where installed)"
per_run() {  # runs, command...: the median wall time of one run, in seconds
  local n=$1
  shift
  if command -v hyperfine >/dev/null; then
    # hyperfine -N starts the command itself (no shell), so a 15 ms command is not charged for a `date` process.
    local json; json=$(mktemp)
    hyperfine -N --style none --warmup 1 --runs "$n" ${forget:+--prepare "rm -rf $forget"} --export-json "$json" \
      "$(printf '%q ' "$@")" >/dev/null 2>&1 || true
    $py -c "import json,sys; print('%.4f' % json.load(open(sys.argv[1]))['results'][0]['median'])" "$json"
    rm -f "$json"
    return
  fi
  local t0 t1 times=()
  for _ in $(seq "$n"); do
    [ -n "${forget:-}" ] && rm -rf "$forget"  # outside the timed window
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    times+=($(( t1 - t0 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { printf "%.4f\n", t[int((NR + 1) / 2)] / 1e9 }'
}
new_book=""
if [ -x "$shelf" ]; then
  # A home of its own with the plugin registry warmed, as an installed shelf has it. The first figure
  # forgets the book before each run (its publication memo), so the plugin opens it as new; the second
  # is the same file asked about again, answered from the memo without loading a plugin.
  export SHELF_HOME="$work/home"; mkdir -p "$SHELF_HOME"
  "$shelf" info "$largest" >/dev/null 2>&1 || true
  new_book=$(forget="$SHELF_HOME/cache/publications" per_run 10 "$shelf" info "$largest")
  echo "  shelf info BOOK, a book shelf has not seen (the command, release): ${new_book} s per run"
  "$shelf" info "$largest" >/dev/null 2>&1 || true
  known=$(per_run 10 "$shelf" info "$largest")
  echo "  shelf info BOOK, the same unchanged file again: ${known} s per run"
fi
driver_t=$(per_run 10 "$work/driver" "$epub2" info "$largest")
echo "  plugin alone (C driver: dlopen, open, manifest): ${driver_t} s per run"
if command -v ebook-meta >/dev/null; then
  theirs=$(per_run 10 ebook-meta "$largest")
  echo "  ebook-meta: ${theirs} s per run"
  [ -n "$new_book" ] && echo "  ratio, shelf info of a new book (target >= 20x): $(ratio "$theirs" "$new_book")"
  [ -n "$new_book" ] && echo "  ratio, shelf info of a known book: $(ratio "$theirs" "$known")"
  echo "  ratio, plugin alone: $(ratio "$theirs" "$driver_t")"
else
  echo "  ebook-meta: not installed (apt-get install calibre)"
  if [ $have_peer = 1 ]; then
    theirs=$(per_run 3 $py "$here/peer_ebooklib.py" info "$largest")
    echo "  ebooklib process: ${theirs} s per run; ratio: $(ratio "$theirs" "${new_book:-$driver_t}")"
  fi
fi

run_pair "search 'whale' in Moby-Dick" "$work/driver" "$epub2" search whale "$moby" -- $py "$here/peer_ebooklib.py" search whale "$moby"
echo "positions of the largest book"
echo "  shelf:    $("$work/driver" "$epub2" positions "$largest" | tail -1)"
echo "peak memory extracting the largest book"
m=$("$work/driver" "$epub2" extract "$largest" | tail -1)
echo "  shelf:    $(echo "$m" | rss) KB (target < 100 MB)"
echo "  empty Swift program: $(/usr/bin/time -f '%M' "$work/empty" 2>&1 >/dev/null | tail -1) KB"
if [ $have_peer = 1 ]; then echo "  ebooklib+lxml: $($py "$here/peer_ebooklib.py" extract "$largest" 2>/dev/null | tail -1 | rss) KB"; fi
