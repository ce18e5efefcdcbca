"""The audiobook player in the browser (#/listen): nothing plays until the patron presses play (not after a
load, a reload or a chapter jump), the place goes to the host's listening session where `shelf play` resumes it,
chapters land at their time, the sleep timer stops playback, speed and volume, the scrubber read as time, the
mini player while browsing, axe and the keyboard. The book is made by audiobook_fixtures (tones in WAV)."""

import json
import os
import re
import tempfile
import time
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import audiobook_fixtures
from rig import BrowserTestCase

PLAYER = "const p = await import('/js/player/shared.js').then(m => m.sharedPlayer());"


class PlayerTestCase(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.path = os.path.join(tempfile.mkdtemp(prefix="shelf-player-"), "bells.audiobook")
        audiobook_fixtures.audiobook(self.path)
        added = self.server.shelf("add", self.path, "--json")
        self.assertEqual(added.returncode, 0, added.stderr)
        self.book = json.loads(added.stdout)["added"][0]["book"]["id"]

    def open_player(self):
        self.go("#/listen?" + urllib.parse.urlencode({"book": self.book}))
        self.find("#play")

    def player(self, expression):
        return self.driver.execute_async_script(f"const done = arguments[0]; (async () => {{ {PLAYER} return {expression}; }})().then(done, e => done('error: ' + e));")

    def audio(self, expression):
        return self.driver.execute_script(f"const a = document.querySelector('audio'); return a.{expression};")

    def polite(self):
        return self.driver.find_element(By.ID, "announcer").get_attribute("textContent")


class NoAutoplayTests(PlayerTestCase):
    def test_nothing_plays_until_play_is_pressed(self):
        self.open_player()
        self.assertTrue(self.audio("paused"))
        self.assertFalse(self.audio("autoplay"))
        time.sleep(1.5)
        self.assertTrue(self.audio("paused"), "still paused after load")
        self.assertEqual(self.audio("currentTime"), 0)
        self.driver.refresh()
        self.find("#play")
        time.sleep(1)
        self.assertTrue(self.audio("paused"), "still paused after a reload")
        self.driver.find_element(By.XPATH, "//ol[@id='chapters']//button[contains(., 'The Bell Tower')]").click()
        self.wait_for(lambda d: abs(self.player("p.position") - 30) < 0.5)
        time.sleep(1)
        self.assertTrue(self.audio("paused"), "still paused after a chapter jump")
        self.assertEqual(self.driver.find_element(By.ID, "play").text, "Play")


class PlaceTests(PlayerTestCase):
    def test_the_place_goes_to_the_host_and_shelf_play_resumes_there(self):
        self.open_player()
        self.driver.find_element(By.ID, "play").click()
        self.wait_for(lambda d: not self.audio("paused") and self.audio("currentTime") > 0.3, message="playing")
        scrubber = self.driver.find_element(By.ID, "scrubber")
        scrubber.send_keys(Keys.ARROW_RIGHT)
        self.wait_for(lambda d: "forward 30 seconds" in self.polite())
        scrubber.send_keys(Keys.ARROW_RIGHT)
        self.wait_for(lambda d: self.player("p.position") > 60)
        self.driver.find_element(By.ID, "play").click()
        self.wait_for(lambda d: self.audio("paused"))
        at = self.player("p.position")
        self.assertTrue(self.audio("paused"))
        # The host has it: the page opened again starts there, and so does `shelf play`.
        self.wait_for(lambda d: abs(self.api("GET", "/api/player?" + urllib.parse.urlencode({"book": self.book}))["position"]["seconds"] - at) < 1.5,
                      message="the host's saved place")
        self.driver.refresh()
        self.find("#play")
        self.wait_for(lambda d: abs(self.player("p.position") - at) < 1.5)
        self.assertTrue(self.audio("paused"))
        played = self.server.shelf("play", self.path, "--null", "--json")
        started = json.loads(played.stdout)["started"]
        clock = re.fullmatch(r"resuming at (\d+):(\d\d)", started)
        self.assertIsNotNone(clock, started)
        self.assertAlmostEqual(int(clock[1]) * 60 + int(clock[2]), at, delta=2)

    def test_play_after_a_stop_replays_the_two_seconds_before_it_as_shelf_play_does(self):
        self.open_player()
        self.driver.find_element(By.ID, "play").click()
        self.wait_for(lambda d: not self.audio("paused") and self.player("p.position") > 5, message="playing")
        # Paused and played again: 2 seconds earlier than where it stopped.
        at, resumed = self.player("await (async () => { p.pause(); const at = p.position; await p.play(); return [at, p.position]; })()")
        self.assertAlmostEqual(resumed, at - 2, delta=0.3)
        # A move while paused starts exactly where the patron went.
        moved = self.player("await (async () => { p.pause(); await p.seek(20); await p.play(); return p.position; })()")
        self.assertAlmostEqual(moved, 20, delta=0.3)
        # Not before the start of the book.
        start = self.player("await (async () => { p.pause(); await p.seek(0.5); await p.play(); p.pause(); await p.play(); return p.position; })()")
        self.assertGreaterEqual(start, 0)
        self.assertLess(start, 0.3)
        # The place the book opens at is a stop too: the first play replays before it.
        at = self.player("await (async () => { await p.seek(40); await p.play(); p.pause(); return p.position; })()")
        self.wait_for(lambda d: abs(self.api("GET", "/api/player?" + urllib.parse.urlencode({"book": self.book}))["position"]["seconds"] - at) < 1.5,
                      message="the host's saved place")
        self.driver.refresh()
        self.find("#play")
        self.wait_for(lambda d: abs(self.player("p.position") - at) < 1.5)
        self.driver.find_element(By.TAG_NAME, "h1").click()  # a gesture, so that the page may play
        opened, played = self.player("await (async () => { const at = p.position; await p.play(); return [at, p.position]; })()")
        self.assertAlmostEqual(played, opened - 2, delta=0.3)

    def test_a_chapter_jump_lands_at_the_chapter_time_and_is_marked_current(self):
        self.open_player()
        crossing = self.driver.find_element(By.XPATH, "//ol[@id='chapters']//button[contains(., 'The Crossing')]")
        crossing.click()
        self.wait_for(lambda d: crossing.get_attribute("aria-current") == "true")
        self.assertAlmostEqual(self.player("p.position"), 60, delta=0.5)
        self.assertIn("track2.wav", self.audio("currentSrc"))
        self.assertIn("Chapter 3 of 3: The Crossing", self.driver.find_element(By.ID, "chapter-now").text)
        self.wait_for(lambda d: "The Crossing, at 1 minute" in self.polite())

    def test_the_current_chapter_says_now_playing_only_while_it_plays(self):
        self.open_player()
        marked = lambda: self.driver.execute_script(
            "const t = document.querySelector('#chapters button[aria-current] .title');"
            "return t ? getComputedStyle(t, '::before').content : null;")
        self.assertEqual(marked(), '"Current chapter: "', "paused, nothing is playing")
        self.find("#play").click()
        self.wait_for(lambda d: not self.audio("paused"))
        self.wait_for(lambda d: marked() == '"Now playing: "', message="playing, the chapter says so")
        self.find("#play").click()
        self.wait_for(lambda d: marked() == '"Current chapter: "', message="paused again")


class ControlsTests(PlayerTestCase):
    def test_the_sleep_timer_stops_playback_and_says_so(self):
        self.open_player()
        sleep = self.driver.find_element(By.ID, "sleep")
        sleep.send_keys(Keys.END)  # "End of chapter", by keyboard
        self.wait_for(lambda d: "Sleep timer: end of chapter" in d.find_element(By.ID, "sleep-left").text)
        self.assertTrue(self.driver.find_element(By.ID, "cancel-sleep").is_displayed())
        self.driver.find_element(By.ID, "cancel-sleep").click()
        self.wait_for(lambda d: d.find_element(By.ID, "sleep-left").text == "Sleep timer: off")
        self.driver.find_element(By.ID, "play").click()
        self.wait_for(lambda d: not self.audio("paused"))
        self.player("(p.setSleep(0.05), true)")  # three seconds, for the test
        self.wait_for(lambda d: self.audio("paused"), timeout=20, message="the timer stopped playback")
        self.wait_for(lambda d: "Sleep timer: playback stopped" in self.polite())
        self.assertEqual(self.audio("volume"), 1, "the volume is back after the fade")

    def test_speed_volume_and_the_scrubber_say_their_values(self):
        self.open_player()
        speed = self.driver.find_element(By.ID, "speed")
        speed.send_keys(Keys.ARROW_RIGHT)
        self.wait_for(lambda d: self.audio("playbackRate") == 1.05)
        self.assertTrue(self.audio("preservesPitch"))
        self.assertEqual(speed.get_attribute("aria-valuetext"), "speed 1.05 times")
        for _ in range(9):
            speed.send_keys(Keys.ARROW_RIGHT)
        self.wait_for(lambda d: speed.get_attribute("aria-valuetext") == "speed 1.5 times")
        volume = self.driver.find_element(By.ID, "volume")
        volume.send_keys(Keys.ARROW_LEFT)
        self.wait_for(lambda d: volume.get_attribute("aria-valuetext") == "volume 95 percent")
        self.assertAlmostEqual(self.player("p.volume"), 0.95)
        scrubber = self.driver.find_element(By.ID, "scrubber")
        self.assertEqual(scrubber.get_attribute("aria-valuetext"), "0 seconds of 2 minutes")
        scrubber.send_keys(Keys.ARROW_RIGHT)
        self.wait_for(lambda d: scrubber.get_attribute("aria-valuetext") == "30 seconds of 2 minutes")
        self.assertIn("at 1.5×", self.driver.find_element(By.ID, "time-left").text)
        self.check_page("player")

    def test_the_mini_player_keeps_playing_while_browsing(self):
        self.open_player()
        self.driver.find_element(By.ID, "play").click()
        self.wait_for(lambda d: not self.audio("paused"))
        self.driver.find_element(By.CSS_SELECTOR, "nav a[data-page=catalog]").click()
        mini = self.find(".mini-player")
        self.wait_for(lambda d: mini.is_displayed())
        self.assertFalse(self.audio("paused"), "playing on while the catalog shows")
        toggle = mini.find_element(By.TAG_NAME, "button")
        self.assertEqual(toggle.text, "Pause")
        self.assertEqual(mini.get_attribute("aria-label"), "Now playing")
        toggle.click()
        self.wait_for(lambda d: self.audio("paused"))
        self.assertEqual(self.focused(), toggle, "the focus stays on the mini player's button")
        # Paused, the region no longer calls itself "Now playing".
        self.wait_for(lambda d: mini.get_attribute("aria-label") == "Audiobook, paused", message="the region's name paused")
        self.check_page("mini-player")


class KeyboardTests(PlayerTestCase):
    def test_listening_by_keyboard_alone(self):
        self.open_player()
        play = self.tab_to(lambda e: e.get_attribute("id") == "play")
        self.press(Keys.ENTER)
        self.wait_for(lambda d: not self.audio("paused"))
        self.assertEqual(play.text, "Pause")
        self.tab_to(lambda e: e.get_attribute("id") == "skip-forward")
        self.press(Keys.ENTER)
        self.wait_for(lambda d: re.search(r"forward 30 seconds, \d+ seconds", self.polite()))
        self.tab_to(lambda e: e.get_attribute("id") == "play", backwards=True)
        self.press(Keys.SPACE)
        self.wait_for(lambda d: self.audio("paused"))
