#!/usr/bin/env bash
# Before and after: the same patron-facing commands from two release builds of shelf, in one hyperfine run each,
# beside a peer where one exists (calibre's ebook-meta for `info`, ffmpeg's atempo for 1.5x audio). For a change
# that must not slow shelf down (issue 13: "within 10% of before"): build the earlier commit into one folder, this
# one into another, and compare. Prints figures; never fails on a slow result.
#
#   bash bench/compare.sh BEFORE_BIN_DIR AFTER_BIN_DIR [BOOK]
#   e.g. git worktree add /tmp/base HEAD~5 && (cd /tmp/base && swift build -c release)
#        bash bench/compare.sh /tmp/base/.build/release .build/release
# BOOK defaults to the Moby-Dick EPUB 3 of ../shared/corpus, else the bundled sample.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd)
book=${3:-../shared/corpus/epub/epub3-idpf-moby-dick.epub}
[ -f "$book" ] || book=samples/the-lighthouse-keeper.epub
book=$(cd "$(dirname "$book")" && pwd)/$(basename "$book")
command -v hyperfine >/dev/null || { echo "hyperfine is needed: scripts/install-deps.sh hyperfine" >&2; exit 69; }
work=$(mktemp -d /tmp/shelf-bench-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1
unset SHELF_PLUGIN_PATH
runs=${RUNS:-30}

# One home per build, so neither reads what the other wrote.
home() { echo "$work/home-$1"; }
for side in before after; do mkdir -p "$(home $side)"; done
bin() { if [ "$1" = before ]; then echo "$before/shelf"; else echo "$after/shelf"; fi; }

# run TITLE PREPARE COMMAND [PEER]: {shelf} and {home} are filled in per side; hyperfine -N runs without a shell,
# so the environment goes in through env(1).
run() {
    local title=$1 prepare=$2 command=$3 peer=${4:-}
    local args=()
    for side in before after; do
        local s h; s=$(bin $side); h=$(home $side)
        args+=(--prepare "${prepare//\{home\}/$h}" -n "$side" "env SHELF_HOME=$h NO_COLOR=1 ${command//\{shelf\}/$s}")
    done
    [ -n "$peer" ] && args+=(--prepare true -n peer "$peer")
    echo
    echo "== $title"
    hyperfine -N --warmup 3 --runs "$runs" --export-markdown "$work/out.md" "${args[@]}" >/dev/null
    cat "$work/out.md"
}

echo "before: $before"; echo "after:  $after"; echo "book:   $book"

run "shelf info of a book shelf has not seen (peer: calibre's ebook-meta)" \
    "rm -rf {home}" "{shelf} info $book" "$(command -v ebook-meta >/dev/null && echo "ebook-meta $book")"

run "open and text: shelf render (every chapter as text)" "true" "{shelf} render $book"

for side in before after; do env SHELF_HOME="$(home $side)" "$(bin $side)" add "$book" >/dev/null; done
run "page turn: shelf read BOOK --next (the book on the shelf)" "true" "{shelf} read $book --next"

# A sync: 1,000 loans from a static loans feed over HTTP on 127.0.0.1 into a fresh library database, through each
# build's shelf-catalog-bench (fetch, parse, store, notification rules, read back; best of 5).
"$before/shelf-catalog-bench" generate-loans 1000 "$work/loans.xml"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/loans.xml" && break; sleep 0.1; done
echo
echo "== sync of 1,000 loans over loopback HTTP"
for side in before after; do
    dir=$before; [ "$side" = after ] && dir=$after
    echo "$side: $("$dir/shelf-catalog-bench" sync 5 "http://127.0.0.1:$port/loans.xml" | tail -1)"
done

# A 10-minute book of speech (or of tones where espeak-ng is missing), decoded and stretched to 1.5x.
audio="$work/book.mp3"
if command -v espeak-ng >/dev/null; then
    espeak-ng -w "$work/speech.wav" "A book for the benchmark, read slowly and clearly, sentence after sentence, with pauses."
    ffmpeg -v error -y -stream_loop -1 -i "$work/speech.wav" -t 600 -ar 44100 -ac 1 -c:a libmp3lame -b:a 64k "$audio"
else
    ffmpeg -v error -y -f lavfi -i "sine=frequency=220:duration=600" -ar 44100 -ac 1 -c:a libmp3lame -b:a 64k "$audio"
fi
runs=5 run "1.5x audio: shelf play --speed 1.5 --null of a 10-minute MP3 (peer: ffmpeg atempo=1.5)" \
    "true" "{shelf} play $audio --from 0 --speed 1.5 --null" "ffmpeg -v error -i $audio -filter:a atempo=1.5 -f null -"
