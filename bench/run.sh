#!/usr/bin/env bash
# shelf's benchmarks: every figure beside a peer measured in the same run. Not a test.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
book=samples/the-lighthouse-keeper.epub
large=${SHELF_BENCH_BOOK:-../shared/corpus/epub/epub3-idpf-moby-dick.epub}
[ -f "$large" ] || large=$book
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== 1. One call through the plugin ABI against the same call made directly"
"$bin/shelf-bench" "$bin" "$large" 2000

echo
echo "== 2. Cold start: \`shelf plugins\` (all bundled plugins loaded) against a trivial Swift program"
swiftc -O bench/trivial.swift -o "$out/trivial" 2>/dev/null
export SHELF_HOME="$out/home"
"$bin/shelf" plugins >/dev/null
if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 5 --runs 50 --export-markdown "$out/start.md" \
        "$out/trivial" "$bin/shelf plugins" "$bin/shelf info $book" >/dev/null
    cat "$out/start.md"
else
    for cmd in "$out/trivial" "$bin/shelf plugins"; do
        start=$(date +%s%N); for _ in $(seq 50); do $cmd >/dev/null; done; end=$(date +%s%N)
        echo "$cmd: $(( (end - start) / 50000 )) µs per run (50 runs)"
    done
fi

echo
echo "== 3. Plugins out of process (shelf-plugin-sandbox) against the same plugins in shelf's process"
bench/sandbox/run.sh "$bin"

echo
echo "== 4. The Readium shapes' JSON (manifest, locators, positions): Readium's reader and writer against JSONDecoder/JSONEncoder"
"$bin/shelf-json-bench" "$large" "${SHELF_BENCH_BOOK2:-../shared/corpus/epub/epub2-feedbooks-memoires-outre-tombe-fr.epub}"
