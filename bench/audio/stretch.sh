#!/usr/bin/env bash
# Stretch quality (issues 20 and 35): the periodicity measure (periodicity.py) of speech played at
# 0.5, 1, 1.5, 2, 2.5 and 3x by shelf (`shelf play --speed X --out`), by ffmpeg's atempo and by sox's tempo
# (its default, and its speech preset `tempo -s`), on the same espeak-ng speech of several voices, in one run.
# Higher is better; the input's own figure is printed first. Then the 1.5x decode time of shelf and ffmpeg on
# a long book (run.sh does the full timing).
#
#   bash bench/audio/stretch.sh
#   SHELF=PATH        a built shelf (default: a release build into $BENCH_WORK/build, as run.sh makes)
#   BENCH_WORK=DIR    where the speech and the build go (default /tmp/shelf-bench-audio)
#   VOICES="a b"      espeak-ng voices (default: three English voices, male and female)
#   MINUTES=N         length of the book for the 1.5x timing (default 16; 0 skips the timing)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${BENCH_WORK:-/tmp/shelf-bench-audio}
voices=${VOICES:-"en-us en-gb+f3 en-gb-scotland+m3"}
minutes=${MINUTES:-16}
speeds="0.5 1 1.5 2 2.5 3"
mkdir -p "$work/stretch"
for tool in ffmpeg sox espeak-ng python3; do
    command -v "$tool" >/dev/null || { echo "$tool is needed (scripts/install-deps.sh installs it)" >&2; exit 69; }
done
python3 -c 'import numpy' 2>/dev/null || { echo "python3-numpy is needed (apt-get install python3-numpy)" >&2; exit 69; }

shelf=${SHELF:-}
if [ -z "$shelf" ]; then
    build=${BENCH_BUILD:-$work/build}
    echo "== building shelf and the audiobook plugin (release)" >&2
    (cd "$root" && swift build -c release --scratch-path "$build" --product shelf >/dev/null \
        && swift build -c release --scratch-path "$build" --product shelf-audiobook >/dev/null)
    shelf="$build/release/shelf"
fi
export SHELF_HOME="$work/stretch/home" HOME="$work/stretch/home"
rm -rf "$SHELF_HOME"

text="The ferry came in late that evening, low in the water and slow against the tide, and Ada watched the \
harbour lights gather out of the dark. The stairs of the lighthouse turned one hundred and twelve times, and by \
the second night her legs had learned the number for her. In the back of the logbook, upside down, were other \
entries: a list of birds, a recipe for fish soup, and a drawing of the lens. She read them by the lamp while the \
wind worked at the windows, and wondered who had kept the light before her, and why they had left."

measure() { python3 "$here/periodicity.py" "$@" | awk '{print $1}'; }

printf '%-22s %-8s' voice input
for s in $speeds; do printf ' %23s' "${s}x"; done
echo
printf '%-22s %-8s' "" ""
for s in $speeds; do printf ' %23s' "shelf/ffmpeg/sox/sox-s"; done
echo
for voice in $voices; do
    name=$(echo "$voice" | tr '+' '_')
    speech="$work/stretch/$name.wav"
    if [ ! -s "$speech" ]; then
        espeak-ng -v "$voice" -s 165 -w "$work/stretch/$name-raw.wav" "$text $text"
        ffmpeg -v error -y -i "$work/stretch/$name-raw.wav" -ar 44100 -ac 1 -c:a pcm_s16le "$speech"
    fi
    printf '%-22s %-8s' "$voice" "$(measure "$speech")"
    for s in $speeds; do
        ours="$work/stretch/$name-shelf-$s.wav"
        theirs="$work/stretch/$name-ffmpeg-$s.wav"
        sox="$work/stretch/$name-sox-$s.wav"
        speech_preset="$work/stretch/$name-sox-s-$s.wav"
        "$shelf" play "$speech" --from 0 --speed "$s" --out "$ours" >/dev/null
        ffmpeg -v error -y -i "$speech" -filter:a "atempo=$s" -c:a pcm_s16le "$theirs"
        sox -V1 "$speech" "$sox" tempo "$s"
        sox -V1 "$speech" "$speech_preset" tempo -s "$s"
        printf ' %5s/%5s/%5s/%5s' "$(measure "$ours")" "$(measure "$theirs")" "$(measure "$sox")" "$(measure "$speech_preset")"
    done
    echo
done

[ "$minutes" -gt 0 ] || exit 0
book="$work/book-${minutes}min.mp3"
if [ ! -s "$book" ]; then
    ffmpeg -v error -y -stream_loop -1 -i "$work/stretch/$(echo "${voices%% *}" | tr '+' '_').wav" -t $((minutes * 60)) \
        -ar 44100 -ac 1 -c:a libmp3lame -b:a 64k "$book"
fi
cpu() {  # best CPU seconds (user + system) of three runs
    local best=""
    for _ in 1 2 3; do
        local t
        t=$(/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.3f", $1 + $2}')
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    done
    echo "$best"
}
ff=$(cpu ffmpeg -v error -i "$book" -filter:a atempo=1.5 -f null -)
ours=$(cpu "$shelf" play "$book" --from 0 --speed 1.5 --null)
echo
echo "1.5x decode of a ${minutes}-minute MP3, CPU seconds (best of 3): shelf $ours, ffmpeg atempo $ff," \
     "ratio $(echo "scale=2; $ours / $ff" | bc -l) (target <= 1.3)"
