"""What EPUB 3.3 and EPUB Reading Systems 3.3 ask the reader to draw (issue 38), each on a small book of
epub3_fixtures whose page says what passes: paths inside the container, fallbacks, reading order, footnotes and
outside links, prefixed CSS, scrolled flow, fixed layout."""

import os
import unittest

from selenium.webdriver.common.by import By

import epub3_fixtures
from rig import ARTIFACTS
from test_reader import ReaderTestCase


class EPUB3TestCase(ReaderTestCase):
    def add_book(self, kind):
        path = os.path.join(self.folder, f"{kind}.epub")
        epub3_fixtures.MAKERS[kind](path)
        return self.add(path)

    def image_loaded(self, element_id):
        """Whether the image `element_id` of the page shown has loaded (None while it is still loading)."""
        return self.in_book("const i = document.getElementById(arguments[0]); return i && i.complete ? i.naturalWidth > 0 : null;", element_id)

    def screenshot(self, name):
        self.driver.save_screenshot(os.path.join(ARTIFACTS, f"{name}.png"))


class PathTests(EPUB3TestCase):
    def test_paths_up_past_the_package_and_from_the_root_stay_in_the_container(self):
        book = self.add_book("paths")
        self.open_reader(book)
        for image in ("up", "root", "above"):
            self.wait_for(lambda d: self.image_loaded(image) is not None, message=f"the image {image} settled")
            self.assertTrue(self.image_loaded(image), f"the image {image} is found inside the book")
        self.screenshot("epub3-paths")
        self.in_book("document.getElementById('rooted-link').click()")
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/text/chapter2.xhtml", message="chapter 2")


class FallbackTests(EPUB3TestCase):
    def test_what_the_browser_cannot_show_is_replaced_by_its_fallback_or_said(self):
        book = self.add_book("fallbacks")
        self.open_reader(book)
        self.wait_for(lambda d: self.image_loaded("foreign-image") is not None, message="the image settled")
        self.assertTrue(self.image_loaded("foreign-image"), "an image of a foreign type shows its fallback")
        self.screenshot("epub3-fallback-image")
        # A foreign spine item with a fallback: its fallback page is shown in its place.
        self.reader("r.goTo({href: 'OEBPS/data.x-shelf', progression: 0})")
        self.wait_for(lambda d: self.in_book("return !!document.getElementById('fallback-page')"), message="the fallback page")
        self.assertEqual(self.reader("r.view.href"), "OEBPS/data.x-shelf", "the place is the spine item's")
        # A foreign spine item without one: the page says so, and the counter still counts.
        self.reader("r.goTo({href: 'OEBPS/raw.json', progression: 0})")
        self.wait_for(lambda d: "cannot show" in (self.in_book("return document.body && document.body.textContent") or ""),
                      message="the page saying the reader cannot show it")
        self.assertNotIn("FAIL", self.in_book("return document.documentElement.textContent"))
        self.assertRegex(self.counter(), r"^Page \d+ of \d+$")
        self.screenshot("epub3-foreign-page")
        self.driver.find_element(By.ID, "next-page").click()
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/last.xhtml", message="the next chapter")


class PrefixedCSSTests(EPUB3TestCase):
    def test_prefixed_properties_are_drawn_as_the_standard_ones(self):
        book = self.add_book("prefixed")
        self.open_reader(book)
        self.assertTrue(self.reader("r.view.vertical"), "-epub-writing-mode sets the page vertical")
        expected = {("dots", "text-emphasis-style"): "sesame", ("dots", "text-emphasis-color"): "rgb(204, 34, 34)",
                    ("tcy", "text-combine-upright"): "all",
                    ("last", "text-align-last"): "end", ("hy", "hyphens"): "auto"}
        for (element, prop), value in expected.items():
            with self.subTest(prop=prop):
                self.assertEqual(self.frame_style(f"#{element}", prop), value)
        # Chromium does not draw text-transform: full-width; the letters are changed into their full-width forms.
        self.assertEqual(self.in_book("return document.getElementById('wide').textContent"), "ａｂｃ")
        self.screenshot("epub3-emphasis-vertical")


if __name__ == "__main__":
    unittest.main()
