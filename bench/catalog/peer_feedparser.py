"""The peer for bench/catalog/run.sh: feedparser (PyPI) on the same files, read into memory first, one pass
per run over every file; prints the best pass in the same shape as shelf-catalog-bench.

    peer_feedparser.py PASSES FILE...      parse files already in memory
    peer_feedparser.py --fetch RUNS URL    fetch URL over HTTP (urllib) and parse it, RUNS times"""
import sys
import time
import urllib.request

import feedparser


def fetch(runs, url):
    best = None
    entries = 0
    for _ in range(runs):
        start = time.perf_counter()
        with urllib.request.urlopen(url) as response:
            parsed = feedparser.parse(response.read())
        entries = len(parsed.entries)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print("feedparser %s: fetched over HTTP and parsed, %d entries: %.6f s (best of %d)"
          % (feedparser.__version__, entries, best, runs))


def main():
    if sys.argv[1] == "--fetch":
        fetch(int(sys.argv[2]), sys.argv[3])
        return
    passes = int(sys.argv[1])
    blobs = []
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            blobs.append(f.read())
    best = None
    entries = refused = 0
    for _ in range(passes):
        entries = refused = 0
        start = time.perf_counter()
        for blob in blobs:
            parsed = feedparser.parse(blob)
            if parsed.bozo and not parsed.entries and not parsed.feed:
                refused += 1
            entries += len(parsed.entries)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print("feedparser %s: %d files, %d bytes, %d entries, %d refused: %.6f s per pass (best of %d)"
          % (feedparser.__version__, len(blobs), sum(map(len, blobs)), entries, refused, best, passes))


if __name__ == "__main__":
    main()
