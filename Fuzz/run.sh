#!/usr/bin/env bash
# Coverage-guided fuzzing of the EPUB container, package, NCX and nav parsers (and of whole archives)
# with libFuzzer and AddressSanitizer. Not part of the tests: it runs until SECONDS have passed.
#
#   bash Fuzz/run.sh [SECONDS] [CORPUS_DIR]      (default 600 s, ../shared/corpus/epub for seeds)
#
# Findings (crashes, leaks, timeouts) land in $FUZZ_WORK/findings; replay one with a plain build:
#   swift build --product shelf-fuzz-epub && .build/debug/shelf-fuzz-epub FILE
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
corpus=${2:-$root/../shared/corpus/epub}
work=${FUZZ_WORK:-/tmp/shelf-fuzz}
mkdir -p "$work/seeds" "$work/queue" "$work/findings"

echo "== building the fuzz target (release, libFuzzer coverage, AddressSanitizer)"
# libFuzzer's own main would clash with SwiftPM's entry point, so the target keeps its main, links the
# runtime without one, and calls LLVMFuzzerRunDriver (forced in and exported, since it is found by dlsym).
runtime=""
for candidate in "$(dirname "$(readlink -f "$(command -v swiftc)")")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a; do
    [ -e "$candidate" ] && runtime=$candidate && break
done
(cd "$root" && swift build -c release --product shelf-fuzz-epub --scratch-path "$work/build" \
    -Xswiftc -DFUZZING -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$runtime" -Xlinker -lstdc++ -Xlinker -u -Xlinker LLVMFuzzerRunDriver \
    -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver >/dev/null)
bin="$work/build/release/shelf-fuzz-epub"

echo "== seeds from $corpus"
# One seed per document: a selector byte (see FuzzTarget.swift), then the document itself.
if [ -d "$corpus" ]; then
    python3 - "$corpus" "$work/seeds" <<'PY'
import os, sys, zipfile, re
corpus, out = sys.argv[1], sys.argv[2]
n = 0
def seed(selector, name, data):
    global n
    with open(os.path.join(out, f"{selector}-{n:04d}-{name}"), "wb") as f:
        f.write(bytes([selector]) + data)
    n += 1
for book in sorted(os.listdir(corpus)):
    if not book.endswith(".epub"):
        continue
    path = os.path.join(corpus, book)
    try:
        z = zipfile.ZipFile(path)
        names = z.namelist()
        if "META-INF/container.xml" in names:
            container = z.read("META-INF/container.xml")
            seed(0, book, container)
            m = re.search(rb'full-path="([^"]+)"', container)
            if m and m.group(1).decode() in names:
                opf = z.read(m.group(1).decode())
                seed(4 if b'version="3' in opf else 1, book, opf)
        for name in names:
            if name.endswith(".ncx"):
                seed(2, book, z.read(name)[:200000])
            elif "nav" in name.lower() and name.endswith((".xhtml", ".html")):
                seed(3, book, z.read(name)[:200000])
    except Exception as error:
        print(f"  {book}: {error}", file=sys.stderr)
    if os.path.getsize(path) < 300_000:
        seed(5, book, open(path, "rb").read())
print(f"  {n} seeds")
PY
fi

echo "== fuzzing for $seconds s"
cd "$work/findings"
"$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=300000 -print_final_stats=1 \
    -artifact_prefix="$work/findings/" "$work/queue" "$work/seeds" 2>&1 | tee "$work/fuzz.log" | grep -E "^#[0-9]+ +(pulse|DONE)|ERROR|stat::" || true
echo "== findings in $work/findings:"
ls "$work/findings"
