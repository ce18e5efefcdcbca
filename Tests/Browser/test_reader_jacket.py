"""The jacket, then chapter one (issue 37, seed 002): a book's first open in the browser shows its jacket (its
cover, title and author, or its first spine item when it has no cover) with one action to chapter one, where
`shelf read` opens the book; later opens go where the patron left off."""

import os

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from epub_fixtures import XHTML, nav, package, prose, write, xhtml
from style_fixtures import png
import test_reader
from test_reader import ReaderTestCase

TITLE = "The Jacketed Fixture"


def jacketed(path):
    """A book with a cover image (`cover-image`), a title page first in its spine, then two chapters."""
    files = {
        "style.css": "p { margin: 0 0 .5em; }",
        "cover.png": png(300, 450, (40, 90, 140)),
        "title.xhtml": xhtml("Title page", f"<h1>{TITLE}</h1><p>A TITLE PAGE</p>"),
        "nav.xhtml": nav([("Title page", "title.xhtml", []), ("Chapter One", "chapter1.xhtml", []),
                          ("Chapter Two", "chapter2.xhtml", [])]),
        "chapter1.xhtml": xhtml("Chapter One", "<h1>Chapter One</h1>" + "".join(f"<p>{prose(n, 6)}</p>" for n in range(40))),
        "chapter2.xhtml": xhtml("Chapter Two", "<h1>Chapter Two</h1>" + "".join(f"<p>{prose(300 + n, 6)}</p>" for n in range(40))),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("cover", "cover.png", "image/png", ' properties="cover-image"'), ("title", "title.xhtml", XHTML, ""),
             ("c1", "chapter1.xhtml", XHTML, ""), ("c2", "chapter2.xhtml", XHTML, "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000201", TITLE, "en", items, ["title", "c1", "c2"])
    write(path, files)


class JacketTests(ReaderTestCase):
    # The full-width check of a chapter change (without running PageGeometryTests' own tests again).
    screen = test_reader.PageGeometryTests.screen
    settled = test_reader.PageGeometryTests.settled
    assert_full_width = test_reader.PageGeometryTests.assert_full_width

    def heading(self):
        return self.in_book("const h = document.querySelector('h1, p'); return h && h.textContent;")

    def toc_to(self, title):
        self.driver.find_element(By.ID, "open-toc").click()
        self.find("#toc[open]")
        self.driver.find_element(By.XPATH, f"//*[@id='toc-list']//a[contains(., '{title}')]").click()

    def test_a_first_open_shows_the_cover_then_chapter_one_and_a_second_open_the_place(self):
        path = os.path.join(self.folder, "jacketed.epub")
        jacketed(path)
        book = self.add(path)
        self.open_reader(book, jacket=True)
        jacket = self.find("#viewport .jacket")
        image = jacket.find_element(By.TAG_NAME, "img")
        self.wait_for(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 300,
                      message="the cover image loaded")
        self.assertEqual(image.get_attribute("alt"), f"Cover of {TITLE}")
        self.assertEqual(jacket.find_element(By.TAG_NAME, "h2").text, TITLE)
        self.assertEqual(jacket.find_element(By.CSS_SELECTOR, ".author").text, "Maren Holt")
        self.assertEqual(self.focused().text, "Start reading")
        # The bottom bar names the cover, and claims nothing read (chapter one is laid out, unseen, under it).
        self.assertEqual(self.counter(), "Cover")
        self.assertEqual(self.driver.find_element(By.ID, "chapter").text, TITLE)
        self.assertEqual(self.driver.find_element(By.ID, "percent").text, "0%")
        self.check_page("reader-jacket")
        # The one action: the focused button, pressed by Enter, opens chapter one (where `shelf read` opens).
        self.press(Keys.ENTER)
        self.wait_for(lambda d: not d.find_elements(By.CSS_SELECTOR, "#viewport .jacket"), message="the jacket gone")
        self.assertEqual(self.reader("r.view.href"), "OEBPS/chapter1.xhtml")
        self.wait_for(lambda d: self.heading() == "Chapter One", message="chapter one shown")
        self.assertRegex(self.counter(), r"^Page \d+ of \d+$")
        self.assertEqual(self.driver.find_element(By.ID, "chapter").text, "Chapter One")
        # The first spine item is never skipped when asked for through the contents.
        self.toc_to("Title page")
        self.settled("OEBPS/title.xhtml")
        self.wait_for(lambda d: self.heading() == TITLE, message="the title page shown")
        # A chapter reached through the contents, at the reading area's full width.
        self.toc_to("Chapter Two")
        self.settled("OEBPS/chapter2.xhtml")
        self.assert_full_width("the table of contents after the jacket")
        self.check_page("reader-after-chapter-change")
        self.wait_for(lambda d: (self.reader("r.savedKey") or "").startswith("OEBPS/chapter2.xhtml"), message="the place saved")
        # A later open goes where the patron left off, without the jacket.
        self.open_reader(book, jacket=True)
        self.assertFalse(self.reader("!!r.jacket"))
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#viewport .jacket, #viewport .jacket-bar"), [])
        self.assertEqual(self.reader("r.view.href"), "OEBPS/chapter2.xhtml")

    def test_a_book_without_a_cover_opens_on_its_first_spine_item(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book, jacket=True)
        self.assertEqual(self.reader("r.view.href"), "OEBPS/cover.xhtml")
        self.wait_for(lambda d: self.heading() == "THE LIGHTHOUSE KEEPER", message="the first spine item shown")
        self.assertEqual(self.focused().text, "Start reading")
        self.check_page("reader-jacket-first-item")
        # The next-page key goes to chapter one as the button does.
        self.press(Keys.ARROW_RIGHT)
        self.settled("OEBPS/chapter1.xhtml")
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#viewport .jacket-bar"), [])
        self.wait_for(lambda d: self.heading() == "Chapter One", message="chapter one shown")
