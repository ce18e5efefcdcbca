"""A narrated book (EPUB 3 media overlays) in the reader (web/js/reader/narration.js): Listen plays the book's own
audio through the Listen bar, never by itself; the element highlighted is the one whose clip holds the audio
element's time (at several moments), the page follows the voice across a page and a chapter (a fixed-layout
book's spread too), a tap or Enter on a phrase plays it, page numbers are skipped when the patron asks and
"Leave this part" goes on after a table. On a book the tests make (overlay_fixtures: eSpeak NG, MP3, Ogg and WAV)
and on the corpus's fixed-layout overlay book."""

import os
import time
import unittest
import urllib.parse
import urllib.request

from selenium.common.exceptions import NoSuchFrameException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import overlay_fixtures
from rig import ARTIFACTS
from test_reader import CORPUS, ReaderTestCase

SMOKE = os.path.join(CORPUS, "epub3-readium-smoketest-fxl.epub")
# A clip is a span of time; the time read a moment after the page's own check may be this far on.
SLACK = 0.15


class NarrationTestCase(ReaderTestCase):
    def open_narrated(self, path):
        self.book = self.add(path)
        self.open_reader(self.book)
        manifest = self.api("GET", f"/api/reader?book={urllib.parse.quote(self.book)}")["manifest"]
        self.clips = []
        for item in manifest["readingOrder"]:
            for alternate in item.get("alternate", []):
                for clip in alternate.get("properties", {}).get("clips", []):
                    href, _, fragment = clip["text"].partition("#")
                    self.clips.append(dict(clip, href=href, id=fragment))
        self.active_class = manifest["metadata"].get("mediaActiveClass") or "shelf-narrating"
        self.audio_base = self.api("GET", f"/api/reader/narration?book={urllib.parse.quote(self.book)}")["audioBase"]

    def audio(self, expression):
        return self.driver.execute_script(f"const a = document.getElementById('listen-audio'); return {expression};")

    def press(self, css):
        self.find(css).click()

    def frames(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#viewport iframe:not(.loading)")

    def in_frames(self, script):
        """`script` run in each page of the screen (its answers in order); a page replaced meanwhile answers None."""
        answers = []
        self.driver.set_script_timeout(3)
        try:
            for frame in self.frames():
                try:
                    self.driver.switch_to.frame(frame)
                    answers.append(self.driver.execute_script(script))
                except (NoSuchFrameException, StaleElementReferenceException, TimeoutException):
                    answers.append(None)
                finally:
                    self.driver.switch_to.default_content()
        finally:
            self.driver.set_script_timeout(30)
        return answers

    def highlighted(self):
        """The ids of the elements carrying the active class, with whether each is in the page shown."""
        script = (f"return [...document.querySelectorAll('.{self.active_class}')].map(e => {{ const b = e.getBoundingClientRect();"
                  " return [e.id, b.right > 0 && b.left < innerWidth && b.bottom > 0 && b.top < innerHeight]; });")
        return [pair for answer in self.in_frames(script) if answer for pair in answer]

    def heard(self):
        """The clip whose span holds the audio element's time, by the manifest (not by the page's own reckoning)."""
        src, now = self.audio("[a.src, a.currentTime]")
        audio = urllib.parse.unquote(urllib.parse.urlparse(src).path)[len(self.audio_base):]
        for clip in self.clips:
            if clip["audio"] == audio and clip["clipBegin"] <= now < clip.get("clipEnd", float("inf")):
                return clip, now
        self.fail(f"no clip of {audio} holds {now:.2f} s")

    def check_highlight(self, moment):
        """Paused: the element highlighted is the one whose clip holds the audio element's time, on the page shown."""
        self.wait_for(lambda d: self.audio("a.paused && a.readyState >= 1"), message=f"{moment}: paused")
        clip, now = self.heard()
        self.wait_for(lambda d: self.highlighted() == [[clip["id"], True]], timeout=10,
                      message=f"{moment}: at {now:.2f} s of {clip['audio']} the page highlights {clip['id']}, not {self.highlighted()}")
        return clip

    def play_until(self, condition, message, timeout=30):
        if self.audio("a.paused"):
            self.press("#listen-play")
        self.wait_for(lambda d: condition(), timeout=timeout, message=message)
        self.press("#listen-play")

    def clip_id(self):
        return self.reader("r.listening.clips[r.listening.at]?.id ?? null")

    def tap(self, id_):
        """Clicks the phrase `id_` in the page of the screen holding it."""
        for frame in self.frames():
            self.driver.switch_to.frame(frame)
            try:
                found = self.driver.find_elements(By.ID, id_)
                if found:
                    found[0].click()
                    return
            finally:
                self.driver.switch_to.default_content()
        self.fail(f"{id_} is on no page shown")

    def choose_entry(self, title):
        """Goes to a contents entry as a patron does: Contents, then the entry."""
        self.driver.find_element(By.ID, "open-toc").click()
        self.find("#toc[open]")
        entries = self.driver.find_elements(By.CSS_SELECTOR, "#toc-list a")
        next(a for a in entries if a.text.split("\n")[0] == title).click()
        self.wait_for(lambda d: not d.find_elements(By.CSS_SELECTOR, "#toc[open]"), message=f"{title} chosen")

    def visited(self, until, timeout=30):
        """Samples (clip id, audio time) as it plays until `until` (a clip id) plays."""
        seen = []
        end = time.time() + timeout
        while time.time() < end:
            seen.append((self.clip_id(), self.audio("a.currentTime"), self.audio("a.src")))
            if seen[-1][0] == until:
                return seen
            time.sleep(0.05)
        self.fail(f"{until} never played: {seen[-5:]}")


@unittest.skipUnless(overlay_fixtures.available(), "the narrated fixture is spoken by espeak-ng and encoded by ffmpeg (make test installs them)")
class NarratedFixtureTests(NarrationTestCase):
    def setUp(self):
        super().setUp()
        self.path = os.path.join(self.folder, "narrated.epub")
        overlay_fixtures.narrated(self.path)
        self.open_narrated(self.path)

    def test_the_highlight_is_the_clip_heard_and_the_page_follows(self):
        self.assertIsNone(self.reader("r.listening ?? null"), "nothing listens before Listen is pressed")
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        # Listen alone plays nothing (seed 000: the patron presses Play).
        time.sleep(1)
        self.assertTrue(self.audio("a.paused"))
        self.assertEqual(self.find("#listen-play").text, "Play")
        self.assertEqual(self.check_highlight("before Play")["id"], "c1-1", "ready at the first phrase shown")
        self.check_page("reader-narration-ready")

        # Moments in chapter one's first page.
        self.play_until(lambda: self.audio("a.currentTime") > 2, "playing")
        self.assertEqual(self.check_highlight("after 2 s")["id"], "c1-2")
        self.assertEqual(self.reader("r.view.page"), 0)
        self.play_until(lambda: self.audio("a.currentTime") > 4.2, "playing on")
        self.assertEqual(self.check_highlight("after 4 s")["id"], "c1-3")
        # The README's picture of a narrated phrase (docs/screenshots/reader-narration.png is taken from it).
        self.driver.save_screenshot(os.path.join(ARTIFACTS, "reader-narration.png"))

        # Across a page: the next phrase is on a later page of the chapter, which is turned to.
        self.play_until(lambda: self.clip_id() == "c1-4" and self.audio("a.currentTime") > 6.3, "the phrase on a later page")
        self.assertEqual(self.check_highlight("on a later page")["id"], "c1-4")
        self.assertGreater(self.reader("r.view.page"), 0, "the page turned with the voice")
        self.check_page("reader-narration-later-page")

        # Across a chapter: chapter two (another file, Ogg) opens when its first phrase comes.
        self.play_until(lambda: self.reader("r.view.href").endswith("two.xhtml") and self.audio("a.src").endswith("two.ogg")
                        and self.audio("a.currentTime") > 1.5, "chapter two playing", timeout=30)
        self.assertEqual(self.check_highlight("in chapter two")["id"], "c2-2")
        # The phrase heard is the reading place, which `shelf read` opens at.
        self.wait_for(lambda d: self.place(self.book)["locator"]["href"].endswith("two.xhtml"), timeout=10,
                      message="the reading place follows the narration")
        # Listening again after the reader is opened again starts at the phrase heard, which the place names.
        self.open_reader(self.book)
        self.assertTrue(self.reader("r.view.href").endswith("two.xhtml"))
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready again")
        self.assertEqual(self.check_highlight("listening again")["id"], "c2-2", "listening resumes at the phrase heard")

        # The book's audio is served in parts (Range), as an audiobook's tracks are.
        request = urllib.request.Request(self.server.url + self.audio_base + "OEBPS/audio/one.mp3", headers={"Range": "bytes=100-199"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            self.assertEqual(answer.status, 206)
            self.assertEqual(len(answer.read()), 100)
            self.assertRegex(answer.headers["Content-Range"], r"^bytes 100-199/\d+$")

    def test_a_tap_or_enter_on_a_phrase_plays_it(self):
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        self.tap("c1-3")
        self.wait_for(lambda d: not self.audio("a.paused") and self.clip_id() == "c1-3", message="the phrase tapped plays")
        self.press("#listen-play")
        self.assertEqual(self.check_highlight("after a tap")["id"], "c1-3")
        # Enter on a phrase reached by keyboard (phrases are focusable while listening).
        frame = self.frames()[0]
        self.driver.switch_to.frame(frame)
        try:
            phrase = self.driver.find_element(By.ID, "c1-2")
            self.assertEqual(phrase.get_attribute("tabindex"), "0")
            phrase.send_keys(Keys.ENTER)
        finally:
            self.driver.switch_to.default_content()
        self.wait_for(lambda d: not self.audio("a.paused") and self.clip_id() == "c1-2", message="the phrase entered plays")
        self.press("#listen-play")
        self.assertEqual(self.check_highlight("after Enter")["id"], "c1-2")
        # Stop listening: the phrases are the book's text again.
        self.press("#listen-close")
        self.wait_for(lambda d: self.in_frames("return document.querySelectorAll('[tabindex], .narrated-now').length") == [0],
                      message="no phrase focusable or highlighted after Stop listening")

    def test_a_contents_entry_inside_a_chapter_starts_at_its_first_phrase(self):
        # "The Gulls" points at a section that begins with the page number, on the page that shows c1-4 first: the
        # first phrase shown is not the entry's.
        self.choose_entry("The Gulls")
        on_page = "return ['c1-4', 'c1-5'].map(id => { const b = document.getElementById(id).getBoundingClientRect(); return b.left >= 0 && b.right <= innerWidth; })"
        self.wait_for(lambda d: self.in_frames(on_page) == [[True, True]], message="c1-4 and the entry's section on the page shown")
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        self.assertEqual(self.check_highlight("Listen after the entry")["id"], "c1-5", "ready at the entry's first phrase")
        # While the narration plays elsewhere, the entry moves it there, and it plays on.
        self.choose_entry("Chapter One")
        self.wait_for(lambda d: self.in_frames("return document.getElementById('c1-2')?.getAttribute('tabindex')") == ["0"],
                      message="chapter one's first page shown")
        self.tap("c1-2")
        self.wait_for(lambda d: not self.audio("a.paused") and self.clip_id() == "c1-2", message="c1-2 plays")
        twelve = next(c for c in self.clips if c["id"] == "c1-5")
        self.choose_entry("The Gulls")
        self.wait_for(lambda d: self.clip_id() == "c1-5" and not self.audio("a.paused") and self.audio("a.currentTime") > twelve["clipBegin"],
                      message="the narration goes on from the entry's first phrase")
        self.press("#listen-play")
        self.assertIn(self.check_highlight("after the entry, playing")["id"], ["c1-5", "c1-6"])

    def test_the_page_read_carries_the_playback_active_class_while_it_plays(self):
        playing = "return document.documentElement.classList.contains('narration-playing')"
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        self.assertEqual(self.in_frames(playing), [False], "not before Play")
        self.press("#listen-play")
        self.wait_for(lambda d: self.in_frames(playing) == [True], message="the book's playback-active class while it plays")
        self.press("#listen-play")
        self.wait_for(lambda d: self.in_frames(playing) == [False], message="taken off when paused")
        self.assertTrue(self.audio("a.paused"))
        self.press("#listen-play")
        self.wait_for(lambda d: self.in_frames(playing) == [True], message="on again when played again")
        self.press("#listen-close")
        self.wait_for(lambda d: self.in_frames(playing) == [False], message="taken off when listening stops")

    def test_the_phrase_heard_is_saved_with_the_quote_of_any_place(self):
        # The place saved while listening quotes the phrase as the reader quotes a screen's first words: at most 120
        # characters, whole words (in-book-place.js `quote`), however long the phrase.
        phrase = overlay_fixtures.AFTER[0][1]
        self.assertGreater(len(phrase), 120)
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        self.driver.execute_script("return window.shelfReader.goTo({href: 'OEBPS/two.xhtml', progression: 0})")
        self.wait_for(lambda d: self.in_frames("return document.getElementById('c2-3')?.getAttribute('tabindex')") == ["0"],
                      message="chapter two's phrases can be chosen")
        self.tap("c2-3")
        self.wait_for(lambda d: self.clip_id() == "c2-3" and not self.audio("a.paused"), message="the long phrase plays")
        self.press("#listen-play")
        saved = lambda: self.api("GET", f"/api/reader/place?book={urllib.parse.quote(self.book)}")["locator"]
        self.wait_for(lambda d: (saved().get("locations", {}).get("fragments") or [None])[0] == "c2-3",
                      timeout=10, message="the place is the phrase heard")
        highlight = saved()["text"]["highlight"]
        self.assertLessEqual(len(highlight), 120, highlight)
        self.assertGreater(len(highlight), 60, highlight)
        self.assertTrue(phrase.startswith(highlight) and phrase[len(highlight)] == " ", f"whole words of the phrase: {highlight!r}")

    def test_a_part_with_no_narration_is_passed_over_and_said(self):
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        self.driver.execute_script("return window.shelfReader.goTo({href: 'OEBPS/one.xhtml', fragment: 'c1-6'})")
        self.wait_for(lambda d: self.in_frames("return document.getElementById('c1-6')?.getAttribute('tabindex')") == ["0"],
                      message="chapter one's last phrase can be chosen")
        self.tap("c1-6")
        # From chapter one's last phrase straight to chapter two's first: the interlude between them is not opened,
        # and it is said.
        seen = self.visited("c2-1", timeout=15)
        self.assertEqual({id_ for id_, _, _ in seen}, {"c1-6", "c2-1"})
        self.wait_for(lambda d: "Interlude. Passed over: it has no narration of its own." in self.polite(), timeout=5,
                      message=f"the interlude is said to be passed over, not {self.polite()!r}")
        self.press("#listen-play")
        self.assertFalse(self.reader("r.view.href").endswith("interlude.xhtml"))

    def test_page_numbers_are_skipped_when_asked(self):
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        page12 = next(c for c in self.clips if c["id"] == "c1-5")
        self.driver.execute_script("return window.shelfReader.goTo({href: 'OEBPS/one.xhtml', fragment: 'c1-4'})")
        # Heard when not asked.
        self.wait_for(lambda d: self.in_frames("return document.getElementById('c1-4')?.getAttribute('tabindex')") == ["0"],
                      message="the later page's phrases can be chosen")
        self.tap("c1-4")
        seen = self.visited("c1-6")
        self.assertIn("c1-5", [id_ for id_, _, _ in seen], "the page number is read unless asked")
        self.press("#listen-play")
        # Skipped when asked: the sound goes from the phrase before to the one after.
        self.press("#listen-skip")
        self.tap("c1-4")
        seen = self.visited("c1-6")
        self.assertNotIn("c1-5", [id_ for id_, _, _ in seen])
        inside = [t for id_, t, src in seen if src.endswith("one.mp3") and page12["clipBegin"] + SLACK < t < page12["clipEnd"] - SLACK]
        self.assertEqual(inside, [], "no sound of the page number is played")
        self.press("#listen-play")
        self.check_page("reader-narration-skipping")

    def test_the_sleep_timer_stops_at_the_end_of_the_chapter(self):
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        self.find("#listen-sleep option[value='chapter']").click()
        self.driver.execute_script("return window.shelfReader.goTo({href: 'OEBPS/one.xhtml', fragment: 'c1-6'})")
        self.wait_for(lambda d: self.in_frames("return document.getElementById('c1-6')?.getAttribute('tabindex')") == ["0"])
        self.tap("c1-6")
        self.wait_for(lambda d: self.audio("a.paused") and not self.reader("r.listening.wantPlaying"), timeout=15,
                      message="stopped at the end of chapter one")
        self.assertEqual(self.clip_id(), "c2-1", "ready at chapter two's first phrase")
        self.assertLess(self.audio("a.currentTime"), 0.2, "nothing of chapter two was played")
        self.wait_for(lambda d: "Sleep timer" in self.polite(), message="the sleep timer says it stopped")

    def test_leave_this_part_goes_on_after_the_table(self):
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")
        self.driver.execute_script("return window.shelfReader.goTo({href: 'OEBPS/two.xhtml', progression: 0})")
        self.wait_for(lambda d: self.in_frames("return !!document.getElementById('r1')") == [True], message="chapter two shown")
        self.wait_for(lambda d: self.in_frames("return document.getElementById('r1').getAttribute('tabindex')") == ["0"],
                      message="the phrases of chapter two can be chosen")
        self.tap("r1")
        self.wait_for(lambda d: self.clip_id() == "r1" and self.audio("a.currentTime") > 0.3, message="the first row plays")
        self.assertTrue(self.find("#listen-escape").is_enabled(), "a row of a table can be left")
        self.press("#listen-escape")
        seen = self.visited("c2-3", timeout=5)
        self.assertEqual({id_ for id_, _, _ in seen} & {"r2", "r3"}, set(), "the table's other rows are not read")
        self.press("#listen-play")
        self.assertEqual(self.check_highlight("after leaving the table")["id"], "c2-3")
        self.check_page("reader-narration-escaped")


@unittest.skipUnless(os.path.exists(SMOKE), f"the corpus's overlay book is not at {SMOKE}")
class SmokeTestBookTests(NarrationTestCase):
    """Readium's fixed-layout smoke test: its media overlay pages (basic tests, skippability, escapability)."""

    def setUp(self):
        super().setUp()
        self.open_narrated(SMOKE)
        self.driver.execute_script("return window.shelfReader.goTo({href: 'xhtml/media-overlays-002.xhtml'})")
        self.wait_for(lambda d: 52 in self.reader("r.view.shown"), message="the first narrated page")
        self.press("#listen")
        self.wait_for(lambda d: self.find("#listen-play").is_enabled(), message="Play ready")

    def shown_hrefs(self):
        return self.reader("r.view.shown.map(i => r.items[i].href)")

    def test_the_highlight_and_the_spread_follow_the_narration(self):
        self.assertTrue(self.audio("a.paused"), "nothing plays before Play")
        self.play_until(lambda: self.audio("a.currentTime") > 3, "playing")
        first = self.check_highlight("after 3 s")
        self.assertTrue(first["href"].endswith("media-overlays-002.xhtml"))
        self.check_page("reader-narration-fixed")
        # Forward 30 s twice, and on at 3x: past the page's last phrase, on the next page (the spread's other page,
        # or the next spread).
        self.find("#listen-speed option[value='3']").click()
        for _ in range(2):
            self.press("#listen-forward")
        self.play_until(lambda: self.heard()[0]["href"].endswith("media-overlays-003.xhtml"), "the next page's phrases")
        clip = self.check_highlight("on the next page")
        self.assertIn(clip["href"], self.shown_hrefs())
        # On into the next overlay (another SMIL, another audio file): its spread is shown.
        self.press("#listen-forward")
        self.wait_for(lambda d: self.audio("a.src").endswith("skippability.mp3"), message="the next overlay")
        clip = self.check_highlight("in the skippability page")
        self.assertIn(clip["href"], self.shown_hrefs())
        self.assertNotIn("xhtml/media-overlays-002.xhtml", self.shown_hrefs(), "the spread turned")

    def test_a_page_break_is_skipped_when_asked(self):
        self.driver.execute_script("return window.shelfReader.goTo({href: 'xhtml/media-overlays-004.xhtml'})")
        self.wait_for(lambda d: 54 in self.reader("r.view.shown"), message="the skippability page")
        self.find("#listen-speed option[value='3']").click()
        self.press("#listen-skip")
        self.wait_for(lambda d: "mo-010-2" in [i for a in self.in_frames("return [...document.querySelectorAll('[tabindex]')].map(e => e.id)") if a for i in a],
                      message="the skippability page's phrases can be chosen")
        self.tap("mo-010-2")
        seen = self.visited("mo-010-4", timeout=20)
        self.assertNotIn("mo-010-3", [id_ for id_, _, _ in seen], "the pagebreak paragraph is skipped")
        self.press("#listen-play")
        self.assertEqual(self.check_highlight("after the page break")["id"], "mo-010-4")

    def test_leave_this_part_goes_on_after_the_glossary(self):
        self.driver.execute_script("return window.shelfReader.goTo({href: 'xhtml/media-overlays-005.xhtml'})")
        self.wait_for(lambda d: 55 in self.reader("r.view.shown"), message="the escapability page")
        self.wait_for(lambda d: "mo-010-3" in [i for a in self.in_frames("return [...document.querySelectorAll('[tabindex]')].map(e => e.id)") if a for i in a],
                      message="the escapability page's phrases can be chosen")
        self.tap("mo-010-3")
        self.wait_for(lambda d: self.clip_id() == "mo-010-3" and not self.audio("a.paused"), message="the glossary's first phrase plays")
        self.press("#listen-escape")
        seen = self.visited("mo-010-6", timeout=5)
        self.assertEqual({id_ for id_, _, _ in seen} & {"mo-010-4", "mo-010-5"}, set(), "the glossary's other phrases are not read")
        self.press("#listen-play")
        self.assertEqual(self.check_highlight("after the glossary")["id"], "mo-010-6")


if __name__ == "__main__":
    unittest.main()
