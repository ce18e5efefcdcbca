#!/usr/bin/env bash
# Load figures for `shelf serve` (a benchmark, not a test): wrk with keep-alive against a page of the shelf
# (/api/shelf?limit=50, 50 books on it) and a chapter resource, at 50 and 200 connections; requests per second
# and latency percentiles. Target (issue 17): p99 <= 20 ms at 50 connections. Then the reader's place saved as the
# browser saves it (POST /api/reader/place with a Readium locator) against /api/status in the same run, at 50
# connections. Target (issue 31): the place's p99 within twice the status's.
# Usage: bash bench/web/run.sh [BUILD_DIR]   (default .build/release)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-.build/release}
command -v wrk >/dev/null || scripts/install-deps.sh wrk
home=$(mktemp -d)
trap 'kill $server 2>/dev/null && wait $server 2>/dev/null; rm -rf "$home"' EXIT
export SHELF_HOME=$home NO_COLOR=1
# 50 distinct books: the sample, re-identified (a shelf keys books by identifier).
python3 - "$home/books" samples/the-lighthouse-keeper.epub <<'PY'
import os, re, sys, zipfile
folder, source = sys.argv[1], sys.argv[2]
os.makedirs(folder, exist_ok=True)
with zipfile.ZipFile(source) as book:
    entries = [(info, book.read(info.filename)) for info in book.infolist()]
for n in range(50):
    with zipfile.ZipFile(os.path.join(folder, f"book{n:02}.epub"), "w") as out:
        for info, data in entries:
            if info.filename.endswith(".opf"):
                data = re.sub(rb"(<dc:identifier[^>]*>)[^<]*", rb"\g<1>urn:uuid:00000000-0000-4000-8000-%012d" % n, data)
                data = re.sub(rb"(<dc:title[^>]*>)([^<]*)", rb"\g<1>\g<2> %d" % n, data)
            out.writestr(info, data)
PY
"$bin/shelf" add "$home"/books/*.epub >/dev/null
"$bin/shelf" serve --json > "$home/serve.json" &
server=$!
for _ in $(seq 100); do [ -s "$home/serve.json" ] && break; sleep 0.1; done
read -r url launch < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["url"], d["open"])' "$home/serve.json")
# wrk asks the system resolver, which may not know shelf.localhost: the server answers to 127.0.0.1 as well.
url=${url/shelf.localhost/127.0.0.1}
launch=${launch/shelf.localhost/127.0.0.1}
session=$(curl -s "$launch" | sed -n 's/.*name="shelf-session" content="\([0-9a-f]*\)".*/\1/p')
id=$("$bin/shelf" books --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
reader=$(curl -s -H "X-Shelf-Session: $session" "${url}api/reader?book=$id")
# The chapter from the book's own origin (*.localhost, which wrk may not resolve either: asked at 127.0.0.1 with
# the origin's name as Host), or from the launch's book path (--listen).
read -r chapter host < <(python3 -c '
import json, sys, urllib.parse
d = json.loads(sys.argv[1]); base = urllib.parse.urljoin(sys.argv[2], d["base"])
parts = urllib.parse.urlsplit(base)
print(parts._replace(netloc="127.0.0.1:%d" % parts.port).geturl() + d["place"]["locator"]["href"], parts.netloc)' "$reader" "$url")
# The place the browser saves: the locator it opened at, a little further into its chapter.
SHELF_BENCH_BODY=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1]); locator = d["place"]["locator"]
locator["locations"] = {"progression": 0.5}
print(json.dumps({"book": sys.argv[2], "locator": locator}))' "$reader" "$id")
export SHELF_BENCH_BODY
curl -s -o /dev/null -H "Host: $host" "$chapter"   # the first read asks the host; the load is what follows
echo "shelf serve at $url ($bin), $(nproc) cores; wrk 10 s per run, keep-alive"
for target in "$chapter" "${url}api/shelf?limit=50"; do
    for connections in 50 200; do
        echo
        echo "== $connections connections: ${target#"$url"}"
        headers=(-H "X-Shelf-Session: $session" -H "Origin: ${url%/}")
        [ "$target" = "$chapter" ] && headers=(-H "Host: $host")
        wrk -t 2 -c "$connections" -d 10s --latency "${headers[@]}" "$target" \
            | grep -E 'Requests/sec|Transfer/sec|^ +(50|75|90|99)%|Socket errors|Non-2xx'
    done
done

echo
echo "== the place saved against the status, 50 connections each"
for target in "${url}api/status" "${url}api/reader/place"; do
    script=()
    [ "$target" = "${url}api/reader/place" ] && script=(-s bench/web/post.lua)
    echo "-- ${script[*]:+POST }${target#"$url"}"
    wrk -t 2 -c 50 -d 10s --latency "${script[@]}" -H "X-Shelf-Session: $session" -H "Origin: ${url%/}" "$target" \
        | grep -E 'Requests/sec|^ +(50|99)%|Socket errors|Non-2xx'
done
