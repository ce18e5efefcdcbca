"""Issue 33, item 2: Get, then Listen on an audiobook's details page opens the player as soon as the first part is
on disk, the other parts arriving behind it (the fake library sends them slowly). Nothing plays until the patron
presses Play; the player says how far the parts are, a move into a part not here yet waits for it with a sentence,
and the loan shows once in My Books."""

import glob
import os
import time
import urllib.parse

from selenium.webdriver.common.by import By

from rig import BrowserTestCase

TITLE = "urn:fake:audio-free"  # Sound of Rivers, an audiobook with copies free


class ListenAsPartsArriveTests(BrowserTestCase):
    SECONDS = 20

    def setUp(self):
        super().setUp()
        # Three MP3 parts of 20 s (about 80 KB each); after the first, 1 KB every half second: some 40 s a part.
        self.library.control("audiobook", id=TITLE, title="Sound of Rivers", parts=3, seconds=self.SECONDS, chunk=1024,
                             interval=0.5)
        self.add_library_and_sign_in()

    def parts_on_disk(self):
        """The loan's parts in the server's home, by name: whole (`part-0001.mp3`) or still arriving (`.part`)."""
        found = glob.glob(os.path.join(self.server.home, "**", "part-000*"), recursive=True)
        return {os.path.basename(path): os.path.getsize(path) for path in found}

    def audio(self, what):
        return self.driver.execute_script(f"const a = document.querySelector('audio'); return a && a.{what};")

    def advancing(self, since, by=1.0, timeout=30):
        """Waits until the audio element plays past `since` + `by` seconds of its track; returns where it is."""
        self.wait_for(lambda d: not self.audio("paused") and self.audio("currentTime") > since + by, timeout,
                      f"the audio element playing on from {since:.1f} s")
        return self.audio("currentTime")

    def test_get_then_listen_plays_the_first_part_while_the_others_arrive(self):
        self.go(f"#/book?id={TITLE}")
        self.find("[data-action=borrow]").click()
        listen = self.find("[data-action=listen]")
        self.check_page("details-get-listen")
        listen.click()

        # The player opens once the first part is whole, the others still on their way (on the server's disk).
        self.wait_for(lambda d: "#/listen" in d.current_url, 60, "the player opening")
        self.find("#play")
        parts = self.parts_on_disk()
        self.assertIn("part-0001.mp3", parts, parts)
        self.assertFalse({"part-0002.mp3", "part-0003.mp3"} <= set(parts), f"the later parts are still arriving: {parts}")
        self.assertTrue(self.audio("paused"), "nothing plays until the patron presses Play")
        self.wait_for_text("Parts here: 1 of 3", "#arriving")
        self.assertIn("arriving", self.text("#arriving"))
        self.check_page("player-parts-arriving")
        time.sleep(1)
        self.assertTrue(self.audio("paused"), "still nothing plays by itself")

        # Play: part 1 plays while parts 2 and 3 are still arriving.
        self.find("#play").click()
        self.announced("Playing")
        start = self.audio("currentTime")
        now = self.advancing(start, 1.5)
        self.assertIn("part-1.mp3", self.audio("src"))
        parts = self.parts_on_disk()
        self.assertNotIn("part-0003.mp3", parts, f"part 3 still arriving while part 1 plays: {parts}")
        self.advancing(now, 0.5)

        # A move into part 3, not here yet: the player says it waits for it, and plays on once it has arrived.
        self.driver.execute_script(
            "const s = document.getElementById('scrubber'); s.value = '45'; s.dispatchEvent(new Event('change'));")
        self.wait_for_text("Waiting for Part 3 to download.", "#player-wait")
        self.announced("Waiting for Part 3 to download.")
        self.assertEqual(self.text("#play"), "Pause", "waiting to play, not paused")
        self.check_page("player-waiting-for-a-part")
        # Elsewhere in the app the mini player says it waits, its button ready to stop the wait.
        self.go("#/my-books")
        self.assertEqual(self.find(".mini-player button").text, "Pause")
        self.assertEqual(self.find(".mini-player").get_attribute("aria-label"), "Audiobook, waiting for a part")
        self.check_page("mini-player-waiting-for-a-part")
        self.find(".mini-player a").click()
        self.find("#play")
        self.assertNotIn("part-0003.mp3", self.parts_on_disk())
        self.wait_for(lambda d: "part-3.mp3" in (self.audio("src") or "") and not self.audio("paused"), 90,
                      "part 3 playing once it arrived")
        self.advancing(5.0, 0.5)
        self.assertIn("part-0003.mp3", self.parts_on_disk())
        self.wait_for(lambda d: not d.find_element(By.ID, "player-wait").is_displayed())
        self.check_page("player-part-arrived")

    def test_the_loan_shows_once_in_my_books_while_its_parts_arrive(self):
        self.go(f"#/book?id={TITLE}")
        self.find("[data-action=borrow]").click()
        self.find("[data-action=listen]").click()
        self.wait_for(lambda d: "#/listen" in d.current_url, 60, "the player opening")
        self.find("#play")
        self.go("#/my-books")
        self.wait_for_text("Sound of Rivers")
        rows = [row.text for row in self.driver.find_elements(By.CSS_SELECTOR, "main li") if "Sound of Rivers" in row.text]
        self.assertEqual(len(rows), 1, rows)
        self.assertIn("Listen", rows[0])
        self.assertNotIn("part-0003.mp3", self.parts_on_disk(), "still arriving while My Books shows the loan")
        self.check_page("my-books-parts-arriving")


class ResumeArrivingPartsTests(ListenAsPartsArriveTests):
    """A download that stopped with shelf (parts 2 and 3 half here) is resumed from the player."""
    SECONDS = 8

    # Only the test below, not those of the class it borrows its set-up from.
    test_get_then_listen_plays_the_first_part_while_the_others_arrive = None
    test_the_loan_shows_once_in_my_books_while_its_parts_arrive = None

    def test_a_download_stopped_with_shelf_is_resumed_from_the_player(self):
        self.go(f"#/book?id={TITLE}")
        self.find("[data-action=borrow]").click()
        self.find("[data-action=listen]").click()
        self.wait_for(lambda d: "#/listen" in d.current_url, 60, "the player opening")
        self.find("#play")
        # `shelf serve` closes and opens again (the same port) while parts 2 and 3 are on their way.
        self.server.restart()
        parts = self.parts_on_disk()
        self.assertNotIn("part-0003.mp3", parts, parts)
        # The terminal names the command that resumes the loan's download as it is typed (before: `shelf fetch`, with
        # no address, which fetches no loan).
        listed = self.server.shelf("downloads").stdout
        self.assertIn("part 2: paused", listed)
        self.assertIn(f"(the download stopped; `shelf download {TITLE}` resumes it)", listed)
        self.driver.get(self.server.launch)
        self.wait_for(lambda d: d.current_url.startswith(self.server.url + "/"))
        self.go("#/listen?book=" + urllib.parse.quote(f"catalog:fake:{TITLE}", safe=""))
        self.wait_for_text("Parts here: 1 of 3; the download of the rest stopped.", "#arriving")
        resume = self.find("#resume-download")
        self.assertEqual(resume.text, "Download the rest")
        self.assertNotIn("downloading", self.text("#chapters"), "nothing is said to be downloading while nothing is")
        self.check_page("player-download-stopped")
        resume.click()
        self.announced("Downloading")
        self.wait_for_text("the rest is arriving", "#arriving")
        self.wait_for_text("(downloading)", "#chapters")
        self.wait_for(lambda d: not d.find_element(By.ID, "resume-download").is_displayed())
        self.wait_for(lambda d: not d.find_element(By.ID, "arriving").is_displayed(), 120, "every part arriving")
        self.assertLessEqual({"part-0001.mp3", "part-0002.mp3", "part-0003.mp3"}, set(self.parts_on_disk()))
        self.assertEqual(self.text("#chapters").count("downloading"), 0, "every chapter can be chosen")
        self.check_page("player-every-part-here")
