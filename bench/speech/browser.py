"""The reader's Listen in Chromium (a benchmark, not a test): from pressing Listen to Play being ready (the host
opened a listening session at the reader's place and spoke its first sound), from pressing Play to the audio
element playing, and the two together (the patron presses Listen, then Play at once). Median of RUNS runs, each
a new session (Stop listening, then Listen again).

Usage: python3 bench/speech/browser.py BOOK.epub [RUNS]   (SHELF_BUILD_DIR: the build, .build/release by default)"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("SHELF_BUILD_DIR", os.path.join(ROOT, ".build", "release"))


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(120)
    return driver


# Listen pressed, then Play as soon as it can be: milliseconds to Play ready and from Play to the audio playing.
PRESS = """
const done = arguments[arguments.length - 1];
const r = window.shelfReader;
(async () => {
  const t0 = performance.now();
  document.getElementById('listen').click();
  const play = () => document.getElementById('listen-play');
  while (!play() || play().disabled) await new Promise((resolve) => setTimeout(resolve, 2));
  const t1 = performance.now();
  const audio = document.getElementById('listen-audio');
  const playing = new Promise((resolve) => audio.addEventListener('playing', resolve, { once: true }));
  play().click();
  await playing;
  const t2 = performance.now();
  document.getElementById('listen-close').click();
  done([t1 - t0, t2 - t1]);
})().catch((e) => done(String(e)));
"""


def line(name, values, target=None):
    goal = f" (target {target})" if target else ""
    print(f"  {name}{goal}: {statistics.median(values):7.1f} ms (best {min(values):.1f}, worst {max(values):.1f}, n={len(values)})")


def main(book, runs):
    home = tempfile.mkdtemp(prefix="shelf-speech-bench-")
    env = dict(os.environ, SHELF_HOME=home, NO_COLOR="1")
    shelf = os.path.join(BUILD, "shelf")
    server = subprocess.Popen([shelf, "serve", "--json"], env=env, stdout=subprocess.PIPE, text=True)
    started = json.loads(server.stdout.readline())
    driver = browser()
    try:
        driver.get(started["open"])
        added = json.loads(subprocess.run([shelf, "add", book, "--json"], env=env, capture_output=True, text=True).stdout)
        book_id = added["added"][0]["book"]["id"]
        driver.get(started["url"] + "reader.html?" + urllib.parse.urlencode({"book": book_id}))
        driver.execute_async_script("""const done = arguments[arguments.length - 1];
            const look = () => window.shelfReader && window.shelfReader.toc ? done() : setTimeout(look, 10); look();""")
        ready, playing = [], []
        for _ in range(runs + 1):
            answer = driver.execute_async_script(PRESS)
            if isinstance(answer, str):
                raise SystemExit(f"Listen failed: {answer}")
            ready.append(answer[0])
            playing.append(answer[1])
        print(f"  first Listen of the server (plugin loaded, book opened): {ready[0] + playing[0]:7.1f} ms")
        ready, playing = ready[1:], playing[1:]
        line("Listen -> Play ready", ready)
        line("Play -> audio playing", playing)
        line("Listen + Play -> first sample playing", [a + b for a, b in zip(ready, playing)], 300)
    finally:
        driver.quit()
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
