#!/usr/bin/env bash
# What running plugins out of process costs (issue 23, item 3): the bundled EPUB and audiobook plugins forced into
# shelf-plugin-sandbox (SHELF_PLUGINS_OUT_OF_PROCESS) against the same plugins in shelf's process, on the same
# inputs in the same run. Each figure is one whole `shelf` command, the mean of several runs. Not a test.
#   bench/sandbox/run.sh [BIN]        BIN: the build folder (default .build/release); SHELF_BENCH_RUNS=20
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-.build/release}
book=samples/the-lighthouse-keeper.epub
runs=${SHELF_BENCH_RUNS:-20}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
outside=org.shelf.epub2,org.shelf.epub3,org.shelf.audiobook

# A one-hour audiobook (stereo 44.1 kHz MP3), made once.
ffmpeg -loglevel error -f lavfi -i "sine=frequency=220:sample_rate=44100:duration=3600" -ac 2 -b:a 64k "$out/hour.mp3"

# mean_ms MODE SETUP COMMAND...: the mean wall time of COMMAND in milliseconds over RUNS runs (SETUP before each,
# untimed), with the plugins in process (MODE in) or out of process (MODE out).
mean_ms() {
    local mode=$1 setup=$2 n=$3; shift 3
    local total=0 start end
    for _ in $(seq "$n"); do
        eval "$setup"
        start=$(date +%s%N)
        if [ "$mode" = out ]; then SHELF_PLUGINS_OUT_OF_PROCESS=$outside "$@" >/dev/null; else "$@" >/dev/null; fi
        end=$(date +%s%N)
        total=$((total + end - start))
    done
    echo $((total / n / 1000000))
}

row() {
    local what=$1 setup=$2 n=$3; shift 3
    local inside outside_ms
    inside=$(mean_ms in "$setup" "$n" "$@")
    outside_ms=$(mean_ms out "$setup" "$n" "$@")
    printf '| %-44s | %8s ms | %8s ms | %5s |\n' "$what" "$inside" "$outside_ms" \
        "$(awk -v a="$inside" -v b="$outside_ms" 'BEGIN { printf "%.2fx", (a > 0 ? b / a : 0) }')"
}

export SHELF_HOME="$out/home"
"$bin/shelf" plugins >/dev/null                   # the registry cache, as after any first command
"$bin/shelf" add "$book" >/dev/null
echo "| ($runs runs each; 1.5x decode: 3)              | in process  | out of process | ratio |"
echo "|----------------------------------------------|-------------|----------------|-------|"
# Each setup is a command line run later by eval, so its variables expand then: single quotes on purpose.
# shellcheck disable=SC2016
row "shelf info of a new book" 'rm -rf "$SHELF_HOME/cache/publications"' "$runs" "$bin/shelf" info "$book"
# shellcheck disable=SC2016
row "a page turn (shelf read --next)" '"$bin/shelf" read "The Lighthouse Keeper" --goto 2 >/dev/null' "$runs" "$bin/shelf" read "The Lighthouse Keeper" --next
row "a search (shelf search BOOK harbour)" ':' "$runs" "$bin/shelf" search "$book" harbour
row "1.5x decode of a 1-hour MP3 (play --null)" ':' 3 "$bin/shelf" play "$out/hour.mp3" --speed 1.5 --null
