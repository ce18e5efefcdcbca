#!/usr/bin/env bash
# Catalog benchmark (issue 5): shelf's OPDS 1 parser (release build) against Python's feedparser on the same files
# in the same run — every OPDS 1 feed in the corpus, and a generated 5,000-entry feed — then a `shelf sync` of
# 1,000 loans from a static loans feed served over HTTP on 127.0.0.1. Prints figures and the ratio (target: shelf
# at least 20x faster than feedparser); it is not a test and never fails on a slow result.
# feedparser has no sync, so the sync's ratios are against what it can do of one: fetch the feed and parse it. The
# sync also stores every loan, runs the notification rules and reads the shelf back; its figure is printed as well.
#
#   bash bench/catalog/run.sh [CORPUS_DIR]      (default ../shared/corpus/opds)
#   BENCH_BUILD=DIR    the scratch path for the release build (default $BENCH_WORK/build)
# The peer: feedparser from PyPI, installed into a venv under $BENCH_WORK (or with pip --user) when missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${1:-$root/../shared/corpus/opds}
work=${BENCH_WORK:-/tmp/shelf-bench-catalog}
build=${BENCH_BUILD:-$work/build}
mkdir -p "$work"
[ -d "$corpus/opds1" ] || { echo "no OPDS 1 corpus at $corpus/opds1" >&2; exit 66; }

# The peer, installed through pip if it is missing.
py=$(command -v python3)
if ! "$py" -c 'import feedparser' 2>/dev/null; then
    if [ -x "$work/venv/bin/python" ] || python3 -m venv "$work/venv" >/dev/null 2>&1; then
        py="$work/venv/bin/python"
        "$py" -c 'import feedparser' 2>/dev/null || "$py" -m pip install --quiet feedparser
    else
        python3 -m pip install --quiet --user feedparser
    fi
fi
"$py" -c 'import feedparser' || { echo "feedparser could not be installed" >&2; exit 69; }

echo "== building shelf-catalog-bench (release)"
(cd "$root" && swift build -c release --scratch-path "$build" --product shelf-catalog-bench >/dev/null)
bench="$build/release/shelf-catalog-bench"

secs() { sed -n 's/.*: \([0-9.]*\) s.*/\1/p'; }
ratio() { "$py" -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.1f}x' if b>0 else 'n/a')" "$1" "$2"; }

compare() {  # label, shelf passes, peer passes, files...
    local label=$1 ours_passes=$2 peer_passes=$3; shift 3
    local ours peer
    ours=$("$bench" parse "$ours_passes" "$@")
    peer=$("$py" "$here/peer_feedparser.py" "$peer_passes" "$@")
    echo "-- $label"
    echo "   $ours"
    echo "   $peer"
    echo "   shelf is $(ratio "$(echo "$peer" | secs)" "$(echo "$ours" | secs)") faster than feedparser (target: 20x)"
}

shopt -s nullglob
feeds=("$corpus"/opds1/*)
echo
echo "== 1. Parse every OPDS 1 feed in the corpus (${#feeds[@]} files, bad-* ones included: refused or read)"
compare "corpus, one pass over every file" 50 5 "${feeds[@]}"

echo
echo "== 2. Parse a generated 5,000-entry acquisition feed (Palace-style entries: availability, copies, holds)"
"$bench" generate 5000 "$work/generated-5000.xml"
compare "generated-5000.xml ($(wc -c < "$work/generated-5000.xml") bytes)" 10 2 "$work/generated-5000.xml"

echo
echo "== 3. Sync 1,000 loans: a static loans feed over HTTP on 127.0.0.1, into a fresh library database"
"$bench" generate-loans 1000 "$work/loans.xml"
port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$py" -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do "$py" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/loans.xml')" 2>/dev/null && break; sleep 0.1; done
loans_url="http://127.0.0.1:$port/loans.xml"
fetched_ours=$("$bench" fetch 10 "$loans_url")
fetched_peer=$("$py" "$here/peer_feedparser.py" --fetch 3 "$loans_url")
synced=$("$bench" sync 5 "$loans_url")
echo "$synced"
echo "-- the loans feed ($(wc -c < "$work/loans.xml") bytes) fetched over HTTP and parsed"
echo "   $fetched_ours"
echo "   $fetched_peer"
echo "   shelf is $(ratio "$(echo "$fetched_peer" | secs)" "$(echo "$fetched_ours" | secs)") faster than feedparser (target: 20x)"
echo "   the whole sync (fetch, parse, store, rules, read back) against feedparser's fetch and parse:" \
     "$(ratio "$(echo "$fetched_peer" | secs)" "$(echo "$synced" | tail -1 | secs)")"
compare "the loans feed alone, parsing only" 10 2 "$work/loans.xml"
