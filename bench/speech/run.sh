#!/usr/bin/env bash
# Read-aloud benchmark (issue 39): a book with text listened to through the speech plugin (eSpeak NG) and the
# listening session, on Mémoires d'outre-tombe (the corpus's 3 MB EPUB), against the `espeak-ng` command on the
# same text in the same run, and the reader's Listen in Chromium (browser.py: from pressing Listen, then Play, to the
# audio element playing). Targets: from the command, and from Listen, to the first sample at most 300 ms; synthesis
# keeps ahead of playback at 2x on 2 cores (spoken faster than 2x real time). Prints figures; never fails on a slow
# result.
#
#   bash bench/speech/run.sh [BIN]       BIN: the folder of a release build of shelf and its plugins
#                                        (default .build/release; `swift build -c release` makes it)
#   SHELF_BENCH_SPEECH_BOOK=FILE         another EPUB
#   RUNS=N                               timed runs of each side (default 5; the median is reported)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-$root/.build/release}
book=${SHELF_BENCH_SPEECH_BOOK:-$root/../shared/corpus/epub/epub2-feedbooks-memoires-outre-tombe-fr.epub}
runs=${RUNS:-5}
[ -f "$book" ] || { echo "no book at $book (the shared corpus)" >&2; exit 66; }
command -v espeak-ng >/dev/null || { echo "espeak-ng is needed (make test installs it)" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SHELF_HOME="$work/home" HOME="$work/home"
# Two cores, as the target says.
pin="taskset -c 0,1"
command -v taskset >/dev/null || pin=""

echo "== 1. From the command to the first sample: \`shelf play BOOK --raw\` against \`espeak-ng --stdout\` of its first passage"
"$bin/shelf" plugins >/dev/null   # the plugin registry's cache, as on any machine after the first command
first=$("$bin/shelf" render "$book" --as text | awk 'NF { print; exit }')
# tr deletes the characters the shell would read inside double quotes (", $, ` and backslash): the single-quoted set is
# meant as written, not a quote to escape.
# shellcheck disable=SC1003
python3 "$here/first_sample.py" "$runs" \
    "shelf play" "$pin $bin/shelf play $book --raw" \
    "espeak-ng" "$pin espeak-ng --stdout -v fr \"$(echo "$first" | tr -d '"$`\\')\""

echo
echo "== 2. Synthesis against playback at 2x: seconds of speech made per second, on 2 cores"
chapter=${SHELF_BENCH_SPEECH_CHAPTER:-3}
start=$(date +%s.%N)
$pin "$bin/shelf" play "$book" --chapter "$chapter" --sleep 10 --out "$work/ten.wav" --json > "$work/report.json"
end=$(date +%s.%N)
spoken=$(python3 -c "import json,sys; print(json.load(open('$work/report.json'))['state']['listened'])")
wall=$(echo "$end - $start" | bc -l)
python3 -c "print('shelf: %.1f s of speech (chapter $chapter, stopped by a 10-minute sleep timer) in %.2f s: %.1fx real time, %.1fx the 2x playback needs' % ($spoken, $wall, $spoken / $wall, $spoken / $wall / 2))"
python3 -c "
import json; marks = json.load(open('$work/report.json'))['marks']
print(' '.join(m['text'] for m in marks if m['kind'] == 'sentence'))" > "$work/spoken.txt"
start=$(date +%s.%N)
$pin espeak-ng -v fr -f "$work/spoken.txt" -w "$work/peer.wav"
end=$(date +%s.%N)
peer=$(python3 -c "import wave; w = wave.open('$work/peer.wav'); print(w.getnframes() / w.getframerate())")
wall=$(echo "$end - $start" | bc -l)
python3 -c "print('espeak-ng: the same text, %.1f s of speech in %.2f s: %.1fx real time' % ($peer, $wall, $peer / $wall))"

echo
echo "== 3. From pressing Listen in the browser's reader (then Play) to the audio element playing, in Chromium"
python=${SHELF_BENCH_PYTHON:-python3}
if "$python" -c "import selenium" 2>/dev/null && [ -x /usr/bin/chromium ]; then
    SHELF_BUILD_DIR="$bin" $pin "$python" "$here/browser.py" "$book" "$runs"
else
    echo "skipped: Chromium and Selenium are needed (scripts/install-deps.sh chromium chromium-driver python3-selenium;"
    echo "or SHELF_BENCH_PYTHON=.build/browser-venv/bin/python)"
fi
