#!/usr/bin/env bash
# Bookshelf benchmark: `shelf read BOOK --next` on the largest corpus books as a process, next to
# `shelf --version` (the cost of starting shelf at all), and `shelf books` with 10,000 books on the shelf.
# Targets (issue 8): read --next under 30 ms, the listing under 100 ms. Prints figures (median and best of
# 15 runs); it is not a test and never fails on a slow result.
#
#   bash bench/bookshelf/run.sh [CORPUS_DIR]        (default ../shared/corpus/epub)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${1:-$root/../shared/corpus/epub}
build=${BENCH_BUILD:-/tmp/build-shelf-release}
work=$(mktemp -d /tmp/shelf-bench-bookshelf.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 66; }

echo "== building (release)"
(cd "$root" && swift build -c release --scratch-path "$build" >/dev/null)
shelf="$build/release/shelf"
export SHELF_HOME="$work/home" NO_COLOR=1
unset SHELF_PLUGIN_PATH

# Runs a command N times as a process; prints median and best wall time in ms.
timeit() {
  python3 - "$@" <<'PY'
import subprocess, sys, time, statistics
label, args = sys.argv[1], sys.argv[2:]
times = []
for _ in range(15):
    t = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    times.append((time.perf_counter() - t) * 1000)
print(f"{label:<48} median {statistics.median(times):7.1f} ms   best {min(times):7.1f} ms")
PY
}

# ls -S sorts by size, which is the point here (corpus names are plain).
# shellcheck disable=SC2012
largest=$(ls -S "$corpus"/*.epub | head -1)
reflowable="$corpus/epub2-feedbooks-memoires-outre-tombe-fr.epub"
echo "== read --next (largest: $(basename "$largest"), $(du -k "$largest" | cut -f1) KB)"
"$shelf" add "$largest" >/dev/null
"$shelf" add "$reflowable" >/dev/null
"$shelf" read "$largest" >/dev/null
"$shelf" read "$reflowable" >/dev/null
echo "   pages: $("$shelf" read "$largest" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pages"])') and $("$shelf" read "$reflowable" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pages"])')"
timeit "shelf --version" "$shelf" --version
timeit "shelf read LARGEST --next" "$shelf" read "$largest" --next
timeit "shelf read MEMOIRES (largest reflowable) --next" "$shelf" read "$reflowable" --next

echo "== shelf books with 10,000 books"
python3 - "$SHELF_HOME/data/library.sqlite3" <<'PY'
import sqlite3, sys, json, time
db = sqlite3.connect(sys.argv[1])
now = int(time.time() * 1000)
with db:
    for i in range(10000):
        bid = f"urn:bench:{i}"
        db.execute("INSERT INTO books (id, path, media_type, title, authors, added_at, opened_at) VALUES (?,?,?,?,?,?,?)",
                   (bid, f"/nowhere/{i}.epub", "application/epub+zip", f"Bench Title {i:05d}", json.dumps([f"Author {i % 97}"]),
                    now - i, now - i * 1000 if i % 3 else None))
        db.execute("INSERT INTO shelf_items (book_id, storage) VALUES (?, 'link')", (bid,))
        if i % 2:
            db.execute("INSERT INTO reading_progress (book_id, page, pages, updated_at) VALUES (?,?,?,?)", (bid, i % 300 + 1, 300, now))
PY
echo "   $("$shelf" books --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))') books on the shelf"
timeit "shelf books" "$shelf" books
timeit "shelf books --json" "$shelf" books --json
