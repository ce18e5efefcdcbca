"""Listening to a book in the reader (web/js/reader/listen.js): the host reads it aloud through its speech plugin
(eSpeak NG) and the page's audio element plays the tracks it serves; the sentence highlighted in the book's page
is the one whose sound is at the audio element's time, at several moments, and the page and the chapter follow
the voice. Never starting by itself: Listen opens the controls, Play plays."""

import os
import re
import tempfile
import time
import unittest

from selenium.webdriver.common.by import By

from selenium.common.exceptions import NoSuchFrameException, StaleElementReferenceException, TimeoutException

from epub_fixtures import XHTML, nav, package, prose, write, xhtml
from rig import ARTIFACTS
from test_reader import ReaderTestCase


def spoken_book(path):
    """Two chapters of plain prose: the first of several pages, the second short."""
    one = "".join(f"<p>{prose(3000 + n, 3)}</p>" for n in range(40))
    two = "".join(f"<p>{prose(4000 + n, 2)}</p>" for n in range(3))
    files = {
        "style.css": "p { margin: 0 0 .4em; }",
        "nav.xhtml": nav([("Chapter One", "one.xhtml", []), ("Chapter Two", "two.xhtml", [])], bodymatter="one.xhtml"),
        "one.xhtml": xhtml("Chapter One", "<h1>Chapter One</h1>" + one),
        "two.xhtml": xhtml("Chapter Two", "<h1>Chapter Two</h1>" + two),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("one", "one.xhtml", XHTML, ""), ("two", "two.xhtml", XHTML, "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000039", "The Spoken Fixture", "en", items, ["one", "two"])
    write(path, files)


def fixed_spoken_book(path):
    """Four fixed-layout pages, 600 by 800, spreads allowed: pages one, two and four with a few sentences each, page
    three a picture with no words. In a landscape window: page one alone, two and three as a spread, four alone."""
    files = {"style.css": "body { margin: 0; width: 600px; height: 800px; } div { width: 560px; padding: 20px; font: 28px serif; }"}
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", "")]
    for n in range(1, 5):
        body = '<div style="background:#def; height: 760px"></div>' if n == 3 else f"<div><p>{prose(5000 + n, 3)}</p></div>"
        files[f"page{n}.xhtml"] = xhtml(f"Page {n}", body, head='<meta name="viewport" content="width=600, height=800"/>')
        items.append((f"p{n}", f"page{n}.xhtml", XHTML, ""))
    files["nav.xhtml"] = nav([(f"Page {n}", f"page{n}.xhtml", []) for n in range(1, 5)], bodymatter="page1.xhtml")
    props = '<meta property="rendition:layout">pre-paginated</meta><meta property="rendition:spread">auto</meta>'
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000040", "The Spoken Picture Book", "en", items,
                                   [f"p{n}" for n in range(1, 5)], props).replace(
        "<package ", '<package prefix="rendition: http://www.idpf.org/vocab/rendition/#" ')
    write(path, files)


def words(text):
    return re.sub(r"\s+", " ", text or "").strip().lower()


@unittest.skipUnless(os.path.exists("/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1") or os.path.exists("/usr/lib/aarch64-linux-gnu/libespeak-ng.so.1"),
                     "the speech plugin needs libespeak-ng (make test installs it)")
class ListenTests(ReaderTestCase):
    def setUp(self):
        super().setUp()
        path = os.path.join(self.folder, "spoken.epub")
        spoken_book(path)
        self.book = self.add(path)
        self.open_reader(self.book)

    def audio(self, expression):
        return self.driver.execute_script(f"const a = document.getElementById('listen-audio'); return {expression};")

    def listening(self, expression):
        return self.reader(f"r.listening.{expression}")

    def highlighted(self):
        return self.in_book("const h = CSS.highlights.get('shelf-spoken'); if (!h) return null;"
                            "for (const r of h) return r.toString(); return null;")

    def expected(self):
        """The sentence whose sound is at the audio element's time, by the host's own marks (asked of the API)."""
        track, now = self.listening("track"), self.audio("a.currentTime")
        answer = self.api("GET", f"/api/listen?book={self.book}&track={track}")
        heard = [s for s in answer["sentences"] if s["time"] <= now + 0.005]
        self.assertTrue(heard, f"a sentence is heard at {now:.2f} s of track {track}")
        return heard[-1]["text"], now

    def check_highlight(self, moment):
        """Paused: the sentence highlighted in the page is the one at the audio element's time."""
        self.wait_for(lambda d: self.audio("a.paused && a.readyState >= 1"), message="paused")
        text, now = self.expected()
        self.wait_for(lambda d: words(self.highlighted()) == words(text), timeout=10,
                      message=f"{moment}: at {now:.2f} s the page highlights {text!r}, not {self.highlighted()!r}")
        # The sentence is on the page shown, not on one turned away.
        left = self.in_book("const h = CSS.highlights.get('shelf-spoken'); for (const r of h) { const b = r.getClientRects()[0];"
                            "return b.left >= 0 && b.left < innerWidth && b.top >= 0 && b.top < innerHeight; } return false;")
        self.assertTrue(left, f"{moment}: the highlighted sentence is on the page shown")
        return now

    def press(self, css):
        self.find(css).click()

    def test_highlighted_sentence_is_the_one_playing_and_the_page_follows(self):
        self.assertIsNone(self.reader("r.listening ?? null"), "nothing listens before Listen is pressed")
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), timeout=60, message="Play ready")
        # Listen alone plays nothing (seed 000: the patron presses Play).
        time.sleep(1)
        self.assertTrue(self.audio("a.paused"))
        self.assertEqual(self.audio("a.currentTime"), 0)
        self.assertEqual(self.find("#listen-play").text, "Play")

        # Moment 1: a few seconds of playing, then paused.
        self.press("#listen-play")
        self.wait_for(lambda d: self.audio("a.currentTime") > 4, timeout=30, message="playing")
        self.assertEqual(self.find("#listen-play").text, "Pause")
        self.press("#listen-play")
        first = self.check_highlight("after playing")
        # The README's picture of listening (docs/screenshots/listen.png is taken from it).
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "reader-listen.png"))
        self.assertGreater(first, 4)

        # Moment 2: Forward 30 s (the track is spoken ahead of playback: the audio element takes the longer part).
        self.wait_for(lambda d: self.api("GET", f"/api/listen?book={self.book}")["tracks"][0]["seconds"] > first + 40,
                      timeout=60, message="the chapter spoken ahead")
        self.press("#listen-forward")
        self.wait_for(lambda d: self.audio("a.currentTime") > first + 25, timeout=15, message="forward 30 s")
        self.check_highlight("after Forward 30 s")

        # Moments 3 and 4: far into the chapter, on a later page, and back.
        self.wait_for(lambda d: self.api("GET", f"/api/listen?book={self.book}")["tracks"][0]["complete"], timeout=120,
                      message="chapter one spoken")
        page_before = self.reader("r.view.page")
        # The page has heard the chapter is whole; its audio element takes all of it, and goes to 80% of it.
        self.wait_for(lambda d: self.listening("trackInfo.complete"), timeout=10, message="the page knows chapter one is whole")
        self.driver.execute_script("const l = window.shelfReader.listening;"
                                   "return l.load(l.track, l.audio.currentTime).then(() => { l.audio.currentTime = l.audio.duration * 0.8; });")
        self.check_highlight("at 80% of the chapter")
        self.wait_for(lambda d: self.reader("r.view.page") > page_before, timeout=5, message="the page turned with the voice")
        self.press("#listen-back")
        self.check_highlight("after Back 30 s")

        # Moment 5: played across the end of chapter one into chapter two: the reader opens it.
        self.driver.execute_script("const a = document.getElementById('listen-audio'); a.currentTime = a.duration - 1;")
        self.press("#listen-play")
        self.wait_for(lambda d: self.reader("r.view.href").endswith("two.xhtml") and self.audio("a.currentTime") > 2, timeout=60,
                      message="chapter two playing and shown")
        self.press("#listen-play")
        self.check_highlight("in chapter two")
        self.assertEqual(self.listening("track"), 1)

        # The place heard is the book's reading place: `shelf read` opens in chapter two.
        self.wait_for(lambda d: self.place(self.book).get("locator", {}).get("href", "").endswith("two.xhtml"),
                      timeout=10, message="the reading place follows listening")


@unittest.skipUnless(os.path.exists("/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1") or os.path.exists("/usr/lib/aarch64-linux-gnu/libespeak-ng.so.1"),
                     "the speech plugin needs libespeak-ng (make test installs it)")
class FixedLayoutListenTests(ListenTests):
    """Listen in a fixed-layout book: each page's text is read, the sentence highlighted on the page of the spread
    that holds it (the other page shows none), and the spread turns with the voice, over a page with no words.
    Failed before: Listen was marked hidden in a fixed-layout book (yet drawn), and pressed it highlighted nothing:
    the reader asked the spread as if it were one reflowable chapter."""

    def setUp(self):
        ReaderTestCase.setUp(self)
        path = os.path.join(self.folder, "pictures.epub")
        fixed_spoken_book(path)
        self.book = self.add(path)
        self.open_reader(self.book)

    def on_page(self, number, script):
        """Runs `script` in fixed-layout page `number` (1 is the first) when it is on the screen; None otherwise."""
        try:
            frame = self.driver.find_element(By.CSS_SELECTOR, f'#viewport iframe[title="Page {number}"]')
            self.driver.set_script_timeout(3)
            self.driver.switch_to.frame(frame)
            return self.driver.execute_script(script)
        except (NoSuchFrameException, StaleElementReferenceException, TimeoutException, Exception):
            return None
        finally:
            self.driver.set_script_timeout(30)
            self.driver.switch_to.default_content()

    def highlighted_on(self, number):
        return self.on_page(number, "const h = CSS.highlights.get('shelf-spoken'); if (!h) return null;"
                                    "for (const r of h) return r.toString(); return null;")

    def check_page(self, number, others=()):
        """Paused: the sentence at the audio element's time is highlighted on page `number`, and none on `others`."""
        self.wait_for(lambda d: self.audio("a.paused && a.readyState >= 1"), message="paused")
        text, now = self.expected()
        self.wait_for(lambda d: words(self.highlighted_on(number)) == words(text), timeout=10,
                      message=f"at {now:.2f} s page {number} highlights {text!r}, not {self.highlighted_on(number)!r}")
        for other in others:
            self.assertIsNone(self.highlighted_on(other), f"page {other} highlights nothing")

    def play_into_next_track(self):
        self.wait_for(lambda d: self.listening("trackInfo?.complete"), timeout=60, message="the page spoken whole")
        self.driver.execute_script("const l = window.shelfReader.listening;"
                                   "return l.load(l.track, 0).then(() => { l.audio.currentTime = Math.max(0, l.audio.duration - 0.5); });")
        self.press("#listen-play")

    def test_highlighted_sentence_is_the_one_playing_and_the_page_follows(self):
        self.assertTrue(self.find("#listen").is_displayed(), "Listen is offered in a fixed-layout book")
        self.assertFalse(self.reader("document.getElementById('listen').hidden"), "and not marked hidden")
        self.assertEqual(self.reader("r.view.shown"), [0], "page one alone")
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), timeout=60, message="Play ready")
        self.assertTrue(self.audio("a.paused"), "Listen alone plays nothing")
        self.assertEqual(self.listening("track"), 0)
        self.press("#listen-play")
        self.wait_for(lambda d: self.audio("a.currentTime") > 2, timeout=30, message="playing")
        self.press("#listen-play")
        self.check_page(1)

        # On into page two: the spread of pages two and three is shown, the sentence on page two.
        self.play_into_next_track()
        self.wait_for(lambda d: self.listening("track") == 1 and self.audio("a.currentTime") > 1.5, timeout=60,
                      message="page two playing")
        self.press("#listen-play")
        self.wait_for(lambda d: self.reader("r.view.shown") == [1, 2], timeout=10, message="the spread of pages two and three")
        self.check_page(2, others=(3,))
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "reader-listen-fixed.png"))

        # Page three has no words: the voice goes on to page four, and the reader with it.
        self.play_into_next_track()
        self.wait_for(lambda d: self.listening("track") == 3 and self.audio("a.currentTime") > 1.5, timeout=60,
                      message="page four playing, page three passed over")
        self.press("#listen-play")
        self.wait_for(lambda d: self.reader("r.view.shown") == [3], timeout=10, message="page four shown")
        self.check_page(4)


if __name__ == "__main__":
    unittest.main()
