"""The reader in the browser, timed in Chromium through chromium-driver on loopback (a benchmark, not a test):
from navigation to the first page of a book drawn, a page turn, a chapter jump and a jump from the table of
contents. The peer is the floor: Chromium drawing the same chapter opened straight from disk (file://, no
server, no reader). Targets (issue 16): 300 / 50 / 150 / 150 ms.

Usage: python3 bench/reader/run.py [BOOK.epub ...]   (SHELF_BUILD_DIR: the build to run, .build/release by default)"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zipfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("SHELF_BUILD_DIR", os.path.join(ROOT, ".build", "release"))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "epub")
RUNS = 15


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(60)
    return driver


def timed(driver, script):
    """Milliseconds from the start of `script` (async JS) to the frame after it finished."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const r = window.shelfReader; const t0 = performance.now();
        (async () => { %s })().then(() => requestAnimationFrame(() => done(performance.now() - t0)), e => done(String(e)));
    """ % script)


def median(values):
    return f"{statistics.median(values):7.1f} ms (min {min(values):.1f}, max {max(values):.1f}, n={len(values)})"


def main(books):
    home = tempfile.mkdtemp(prefix="shelf-reader-bench-")
    env = dict(os.environ, SHELF_HOME=home, NO_COLOR="1")
    shelf = os.path.join(BUILD, "shelf")
    server = subprocess.Popen([shelf, "serve", "--json"], env=env, stdout=subprocess.PIPE, text=True)
    started = json.loads(server.stdout.readline())
    driver = browser()
    try:
        driver.get(started["open"])
        for path in books:
            added = json.loads(subprocess.run([shelf, "add", path, "--json"], env=env, capture_output=True, text=True).stdout)
            book = added["added"][0]["book"]
            url = started["url"] + "reader.html?" + urllib.parse.urlencode({"book": book["id"]})
            print(f"== {os.path.basename(path)} ({os.path.getsize(path) / 1e6:.1f} MB), {book['title']}")
            first = []
            for run in range(RUNS):
                driver.get(url)
                first.append(driver.execute_async_script("""
                    const done = arguments[arguments.length - 1];
                    const look = () => { const m = performance.getEntriesByName('shelf-first-page')[0];
                                         if (m) done(m.startTime); else setTimeout(look, 5); };
                    look();"""))
                if run == 0:
                    print(f"  navigation -> first page drawn, first open (host asked):  {first[0]:7.1f} ms")
            print(f"  navigation -> first page drawn (target 300):  {median(first[1:])}")
            driver.execute_async_script("""const done = arguments[arguments.length - 1];
                const look = () => window.shelfReader && window.shelfReader.toc ? done() : setTimeout(look, 10); look();""")
            fixed = driver.execute_script("return window.shelfReader.fixed")
            turns = [timed(driver, "await r.next();") for _ in range(RUNS)]
            print(f"  page turn (target 50):                         {median(turns)}")
            count = driver.execute_script("return window.shelfReader.items.length")
            jumps = [timed(driver, f"await r.goTo({{href: r.items[{(7 + 13 * i) % count}].href, progression: 0}});") for i in range(RUNS)]
            print(f"  chapter jump (target 150):                     {median(jumps)}")
            entries = driver.execute_script("return window.shelfReader.toc.entries.length")
            tocs = [timed(driver, f"await r.goToEntry(r.toc.entries[{(5 + 17 * i) % max(1, entries)}]);") for i in range(RUNS)] if entries else []
            if tocs:
                print(f"  table-of-contents jump (target 150):           {median(tocs)}")
            if not fixed:
                # The floor: the same first chapter straight from disk, no server and no reader.
                folder = tempfile.mkdtemp(prefix="shelf-reader-bench-file-")
                zipfile.ZipFile(path).extractall(folder)
                href = driver.execute_script("return window.shelfReader.view.href")
                floor = []
                for _ in range(RUNS):
                    driver.get("file://" + os.path.join(folder, href))
                    floor.append(driver.execute_async_script("""
                        const done = arguments[arguments.length - 1];
                        const look = () => { const p = performance.getEntriesByName('first-contentful-paint')[0];
                                             if (p) done(p.startTime); else setTimeout(look, 5); }; look();"""))
                print(f"  peer: Chromium drawing {href} from disk: {median(floor)}")
                driver.get(started["url"])
    finally:
        driver.quit()
        server.terminate()
        server.wait()


if __name__ == "__main__":
    books = sys.argv[1:]
    if not books:
        candidates = [os.path.join(CORPUS, n) for n in ("epub2-feedbooks-memoires-outre-tombe-fr.epub", "epub3-readium-smoketest-fxl.epub")]
        books = [b for b in candidates if os.path.exists(b)] or [os.path.join(ROOT, "samples", "the-lighthouse-keeper.epub")]
    main(books)
