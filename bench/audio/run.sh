#!/usr/bin/env bash
# Audiobook benchmark (issue 4): decoding plus 1.5x time-stretch (pitch kept) of a long book through shelf's
# playback engine (`shelf play BOOK --speed 1.5 --null`, release build) against
# `ffmpeg -i BOOK -filter:a atempo=1.5 -f null -` on the same file in the same run; seek latency; peak memory.
# Targets: shelf within 1.3x of ffmpeg's time, and above 200x real time. Prints figures; never fails on a slow result.
#
#   bash bench/audio/run.sh [MINUTES]     (default 64: a 64-minute mono 64 kbit/s MP3 of espeak-ng speech)
#   BENCH_WORK=DIR     where the book and the release build go (default /tmp/shelf-bench-audio)
#   BENCH_BUILD=DIR    the scratch path for the release build (default $BENCH_WORK/build)
#   RUNS=N             timed runs of each side (default 3; the best is reported)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
minutes=${1:-64}
work=${BENCH_WORK:-/tmp/shelf-bench-audio}
build=${BENCH_BUILD:-$work/build}
runs=${RUNS:-3}
mkdir -p "$work"
for tool in ffmpeg espeak-ng; do
    command -v "$tool" >/dev/null || { echo "$tool is needed (make test installs it)" >&2; exit 69; }
done

book="$work/book-${minutes}min.mp3"
if [ ! -s "$book" ]; then
    echo "== making a ${minutes}-minute MP3"
    espeak-ng -w "$work/speech.wav" "This is a long book for the benchmark. It is read slowly and clearly, sentence after sentence, so that the time stretcher has real speech to work on, with pauses and voiced sounds."
    ffmpeg -v error -y -stream_loop -1 -i "$work/speech.wav" -t $((minutes * 60)) -ar 44100 -ac 1 -c:a libmp3lame -b:a 64k "$book"
fi

echo "== building shelf and the audiobook plugin (release)"
(cd "$root" && swift build -c release --scratch-path "$build" --product shelf >/dev/null \
    && swift build -c release --scratch-path "$build" --product shelf-audiobook >/dev/null)
shelf="$build/release/shelf"
export SHELF_HOME="$work/home" HOME="$work/home"
rm -rf "$SHELF_HOME"

# The machine may be shared: each side is timed by wall clock and by CPU time (user + system), best of $runs.
measure() {  # prints "wall cpu peakMiB" of the best run (by CPU time)
    local best=""
    for _ in $(seq "$runs"); do
        local line
        line=$(/usr/bin/time -f '%e %U %S %M' "$@" 2>&1 >/dev/null | tail -1)
        line=$(echo "$line" | awk '{printf "%.3f %.3f %.1f", $1, $2 + $3, $4 / 1024}')
        if [ -z "$best" ] || [ "$(echo "$(echo "$line" | cut -d' ' -f2) < $(echo "$best" | cut -d' ' -f2)" | bc -l)" = 1 ]; then best=$line; fi
    done
    echo "$best"
}
f() { echo "$1" | cut -d' ' -f"$2"; }

seconds=$((minutes * 60))
ff=$(measure ffmpeg -v error -i "$book" -filter:a atempo=1.5 -f null -)
ours=$(measure "$shelf" play "$book" --from 0 --speed 1.5 --null)
plain=$(measure "$shelf" play "$book" --from 0 --null)
ffplain=$(measure ffmpeg -v error -i "$book" -f null -)
open=$(measure "$shelf" play "$book" --from 0 --sleep 0.0001 --null)
seek=$(measure "$shelf" play "$book" --from $((seconds * 3 / 4)) --sleep 0.0001 --null)

x() { echo "scale=1; $1 / $2" | bc -l; }
echo
echo "book: $book (${minutes} min); times are wall / CPU seconds, best of $runs"
printf 'ffmpeg atempo=1.5:            %s / %s s  (%sx real time by CPU, peak %s MiB)\n' "$(f "$ff" 1)" "$(f "$ff" 2)" "$(x "$seconds" "$(f "$ff" 2)")" "$(f "$ff" 3)"
printf 'shelf play --speed 1.5:       %s / %s s  (%sx real time by CPU, peak %s MiB)\n' "$(f "$ours" 1)" "$(f "$ours" 2)" "$(x "$seconds" "$(f "$ours" 2)")" "$(f "$ours" 3)"
printf '  ratio to ffmpeg: %s by CPU, %s by wall (target <= 1.3)\n' "$(echo "scale=2; $(f "$ours" 2) / $(f "$ff" 2)" | bc -l)" "$(echo "scale=2; $(f "$ours" 1) / $(f "$ff" 1)" | bc -l)"
printf 'decode only: shelf at 1.0x    %s / %s s;  ffmpeg -f null  %s / %s s\n' "$(f "$plain" 1)" "$(f "$plain" 2)" "$(f "$ffplain" 1)" "$(f "$ffplain" 2)"
printf 'open + first chunk:           %s s wall;  seek to %s s + a chunk: %s s wall  (seek latency ~ %s s)\n' \
    "$(f "$open" 1)" "$((seconds * 3 / 4))" "$(f "$seek" 1)" "$(echo "scale=3; $(f "$seek" 1) - $(f "$open" 1)" | bc -l)"
