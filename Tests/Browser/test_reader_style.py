"""The reader's styles over the publisher's (issue 37): a book's own fonts show until the patron chooses another,
the font scale follows the host's one rule of the settings (issue 31), images fit the room a page has."""

import json
import os

from selenium.webdriver.common.by import By

import style_fixtures
from test_reader import ReaderTestCase


class PublisherLookTests(ReaderTestCase):
    def add_style_fixture(self, maker):
        path = os.path.join(self.folder, f"{maker.__name__}.epub")
        maker(path)
        return self.add(path)

    def font_loaded(self):
        return self.in_book("return [...document.fonts].some((f) => f.family.replace(/\"/g, '') === arguments[0] "
                            "&& f.status === 'loaded')", style_fixtures.FAMILY)

    def test_a_books_embedded_font_shows_until_the_patron_chooses_another(self):
        if not style_fixtures.available():
            self.skipTest(f"no font at {style_fixtures.FONT} to embed")
        book = self.add_style_fixture(style_fixtures.fonted)
        self.open_reader(book)
        # By default the book's own font: the reader forced its serif on p, div, span … before.
        self.assertEqual(self.reader("r.settings.effective.font"), "publisher")
        self.assertTrue(self.frame_style("p", "font-family").startswith(f'"{style_fixtures.FAMILY}"'),
                        self.frame_style("p", "font-family"))
        self.wait_for(lambda d: self.font_loaded(), message="the embedded font loaded")
        self.assertEqual(self.frame_style(".name", "font-variant-caps"), "small-caps", "the publisher's styles stay")
        self.driver.find_element(By.ID, "open-display").click()
        self.find("#display[open]")
        self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, "input[name=font][value=publisher]").is_selected())
        self.check_page("reader-publisher-font-display")
        # The patron's choice overrides the family only; the book's font comes back with "Publisher's font".
        self.driver.find_element(By.CSS_SELECTOR, "input[name=font][value=serif]").click()
        self.wait_for(lambda d: "Liberation Serif" in self.frame_style("p", "font-family"))
        self.assertEqual(self.frame_style(".name", "font-variant-caps"), "small-caps")
        self.driver.find_element(By.CSS_SELECTOR, "input[name=font][value=publisher]").click()
        self.wait_for(lambda d: self.frame_style("p", "font-family").startswith(f'"{style_fixtures.FAMILY}"'))
        self.wait_for(lambda d: json.loads(self.server.shelf("settings", book, "--json").stdout)["stored"].get("font") == "publisher")
        self.driver.execute_script("document.getElementById('display').close()")
        self.check_page("reader-publisher-font")

    def test_the_font_scale_follows_the_hosts_rule(self):
        # `shelf settings` takes 25 to 800; the reader's buttons stopped at 300 (and 50) on their own before.
        book = self.add_fixture("reflowable")
        self.assertEqual(self.server.shelf("settings", book, "--font-scale", "300").returncode, 0)
        self.open_reader(book)
        self.driver.find_element(By.ID, "open-display").click()
        self.find("#display[open]")
        self.driver.find_element(By.ID, "font-larger").click()
        self.wait_for(lambda d: json.loads(self.server.shelf("settings", book, "--json").stdout)["stored"].get("fontScale") == 310,
                      message="310% stored")
        self.assertEqual(self.frame_style("html", "font-size"), f"{16 * 3.1:g}px")
        # At the host's bound the button stays there, and the host's refusal is never met.
        self.assertEqual(self.server.shelf("settings", book, "--font-scale", "800").returncode, 0)
        self.open_reader(book)
        self.driver.find_element(By.ID, "open-display").click()
        self.find("#display[open]")
        self.driver.find_element(By.ID, "font-larger").click()
        self.wait_for(lambda d: "Text size" in self.polite(), message="the new size announced")
        self.assertEqual(self.reader("r.settings.effective.fontScale"), 800, "the host's bound, not the page's own")
        self.assertEqual(json.loads(self.server.shelf("settings", book, "--json").stdout)["stored"].get("fontScale"), 800)
        # The web API refuses what the command line refuses, in the host's words.
        answer = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1], book = arguments[0];"
            "import('/js/api.js').then(({ api }) => api.post('/api/reader/settings', { book, fontScale: 900 }))"
            ".then(() => done('accepted'), (error) => done(error.message));", book)
        self.assertIn("from 25 to 800, not 900", answer)


# Where a picture of the page shown lies: its page, its box, its caption's, and the end of the text before it.
PICTURE = """
const W = innerWidth, H = innerHeight, s = document.scrollingElement;
const root = getComputedStyle(document.documentElement);
const top = parseFloat(root.paddingTop), bottom = H - parseFloat(root.paddingBottom);
const pageOf = (r) => Math.floor((r.left + s.scrollLeft + 1) / W);
const element = document.querySelector(arguments[0]);
const box = element.getBoundingClientRect();
const caption = element.closest('figure')?.querySelector('figcaption')?.getBoundingClientRect() ?? null;
const before = [...element.closest('figure, p').previousElementSibling.getClientRects()].pop();
return { top: box.top, bottom: box.bottom, height: box.height, page: pageOf(box), pageTop: top, pageBottom: bottom,
         captionPage: caption && pageOf(caption), captionBottom: caption && caption.bottom,
         beforePage: pageOf(before), beforeBottom: before.bottom };
"""


class PictureTests(ReaderTestCase):
    def test_pictures_fit_the_room_left_and_keep_their_captions(self):
        path = os.path.join(self.folder, "pictures.epub")
        style_fixtures.pictures(path)
        book = self.add(path)
        for width, height in ((1280, 900), (900, 700)):
            self.driver.set_window_size(width, height)
            self.open_reader(book)
            for selector in ("#tall", "#drawing", "#image-figure img"):
                with self.subTest(window=width, picture=selector):
                    at = self.in_book(PICTURE, selector)
                    room = at["pageBottom"] - at["pageTop"]
                    self.assertGreater(at["height"], 0.2 * room, at)
                    self.assertGreaterEqual(at["top"], at["pageTop"] - 1, f"the top is on the page: {at}")
                    self.assertLessEqual(at["bottom"], at["pageBottom"] + 1, f"the picture is whole: {at}")
                    if at["captionPage"] is not None:
                        self.assertEqual(at["captionPage"], at["page"], f"the caption is on the picture's page: {at}")
                        self.assertLessEqual(at["captionBottom"], at["pageBottom"] + 1, at)
                    # Moved to the next page only when the text before it filled more than half its page (the reader
                    # scales a picture into at least 40% of a page; a margin or a line may lie between).
                    if at["beforePage"] != at["page"]:
                        self.assertLess(at["pageBottom"] - at["beforeBottom"], 0.5 * room,
                                        f"a nearly empty page before the picture: {at}")
            if width == 1280:
                self.check_page("reader-pictures")
