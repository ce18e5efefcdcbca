"""The reader's styles over the publisher's (issue 37): a book's own fonts show until the patron chooses another,
the font scale follows the host's one rule of the settings (issue 31)."""

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

