"""The EPUB reader in the browser (web/reader.html): opening at chapter one, settings applied in the book's
frame, pages turned by keys and saved where `shelf read` reads them, the table of contents, bookmarks, search,
share, right-to-left, vertical and fixed-layout books, a book's script kept out, axe in each theme, and reading
by keyboard alone. Books are made by epub_fixtures; corpus books are added when ../shared/corpus is there."""

import json
import os
import tempfile
import time
import unittest
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import epub_fixtures
from rig import BrowserTestCase, ROOT

CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "epub")
# Corpus books by what they exercise: EPUB 2, EPUB 3, fixed layout (right to left), right to left, vertical.
CORPUS_BOOKS = {
    "epub2": "epub2-feedbooks-moby-dick.epub",
    "epub3": "epub3-idpf-moby-dick.epub",
    "fixed": "epub3-idpf-haruko-html-jpeg.epub",
    "rtl": "epub3-idpf-regime-anticancer-arabic.epub",
    "vertical": "epub3-i18n-japanese-vertical.epub",
}


class ReaderTestCase(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.folder = tempfile.mkdtemp(prefix="shelf-reader-books-")

    def add(self, path):
        answer = self.server.shelf("add", path, "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        return json.loads(answer.stdout)["added"][0]["book"]["id"]

    def add_fixture(self, kind):
        path = os.path.join(self.folder, f"{kind}.epub")
        epub_fixtures.MAKERS[kind](path)
        return self.add(path)

    def open_reader(self, book):
        self.driver.get(f"{self.server.url}/reader.html?" + urllib.parse.urlencode({"book": book}))
        self.wait_for(lambda d: d.execute_script("const r = window.shelfReader; return !!(r && r.view && (r.view.frame || (r.view.frames && r.view.frames.length)))"),
                      message="the book's first page")
        self.wait_for(lambda d: d.execute_script("return !!window.shelfReader.pageMap"), message="the page ranges")

    def reader(self, expression):
        return self.driver.execute_script(f"const r = window.shelfReader; return {expression};")

    def frame_style(self, selector, prop):
        return self.driver.execute_script(
            "const d = window.shelfReader.view.document; const e = d.querySelector(arguments[0]);"
            "return d.defaultView.getComputedStyle(e).getPropertyValue(arguments[1]);", selector, prop)

    def place(self, book):
        answer = self.server.shelf("read", book, "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        return json.loads(answer.stdout)

    def counter(self):
        return self.driver.find_element(By.ID, "page-counter").text

    def polite(self):
        return self.driver.find_element(By.ID, "announce").text


class OpeningTests(ReaderTestCase):
    def test_a_fixture_opens_after_the_cover_at_chapter_one(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        self.assertEqual(self.reader("r.view.href"), "OEBPS/chapter1.xhtml")
        self.assertIn("Chapter One", self.reader("r.view.document.body.textContent"))
        self.assertEqual(self.place(book)["locator"]["href"], "OEBPS/chapter1.xhtml", "the command line agrees")
        self.assertRegex(self.counter(), r"^Page \d+ of \d+$")
        self.check_page("reader-fixture-day")

    def test_corpus_books_open_where_shelf_read_opens_them(self):
        if not os.path.isdir(CORPUS):
            self.skipTest(f"the corpus is not at {CORPUS}: the fixtures alone are read")
        for kind, name in CORPUS_BOOKS.items():
            with self.subTest(kind=kind):
                book = self.add(os.path.join(CORPUS, name))
                self.open_reader(book)
                place = self.place(book)
                shown = self.reader("r.fixed ? r.view.items[r.view.shown[0]].href : r.view.href")
                self.assertEqual(shown, place["locator"]["href"], f"{name}: the browser opens where `shelf read` does")
                self.assertEqual(self.reader("r.page"), place["page"])


class LayoutTests(ReaderTestCase):
    def test_a_fixed_layout_book_shows_a_spread_at_its_declared_size(self):
        book = self.add_fixture("fixed")
        self.open_reader(book)
        # The first page (the cover) alone, then two pages side by side in a landscape window.
        self.assertEqual(self.reader("r.view.shown"), [0])
        self.driver.find_element(By.ID, "next-page").click()
        self.wait_for(lambda d: self.reader("r.view.shown") == [1, 2])
        sizes = self.reader("r.view.frames.map(p => [p.width, p.height, p.frame.getBoundingClientRect().height])")
        for width, height, drawn in sizes:
            self.assertEqual((width, height), (600, 800))
            self.assertGreater(drawn, 100)
        boxes = self.reader("r.view.frames.map(p => p.box.getBoundingClientRect().left)")
        self.assertLess(boxes[0], boxes[1], "left to right: the first page of the spread on the left")
        self.check_page("reader-fixed-spread")

    def test_a_right_to_left_book_turns_forward_with_the_left_arrow(self):
        book = self.add_fixture("rtl")
        self.open_reader(book)
        self.assertTrue(self.reader("r.view.rtl"))
        self.reader("document.getElementById('book').focus()")
        self.press(Keys.ARROW_LEFT)
        self.wait_for(lambda d: self.reader("r.view.page") == 1)
        self.assertLess(self.reader("r.view.scroller.scrollLeft"), 0, "the columns run to the left")
        self.press(Keys.ARROW_RIGHT)
        self.wait_for(lambda d: self.reader("r.view.page") == 0)

    def test_a_vertical_book_is_laid_out_in_vertical_columns(self):
        book = self.add_fixture("vertical")
        self.open_reader(book)
        self.assertTrue(self.reader("r.view.vertical"))
        self.assertEqual(self.frame_style("html", "writing-mode"), "vertical-rl")
        self.assertGreater(self.reader("r.view.pages"), 1)
        self.reader("document.getElementById('book').focus()")
        self.press(Keys.ARROW_LEFT)
        self.wait_for(lambda d: self.reader("r.view.page") == 1)
        self.assertGreater(self.reader("r.view.scroller.scrollTop"), 0, "vertical pages follow each other downwards")
        self.check_page("reader-vertical")


class SettingsTests(ReaderTestCase):
    def test_each_setting_changes_the_page_in_the_frame(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        before = {
            "size": self.frame_style("html", "font-size"), "font": self.frame_style("p", "font-family"),
            "colour": self.frame_style("p", "color"), "background": self.frame_style("body", "background-color"),
            "line": self.frame_style("p", "line-height"), "margin": self.frame_style("html", "padding-left"),
        }
        self.driver.find_element(By.ID, "open-display").click()
        self.find("#display[open]")
        self.driver.find_element(By.ID, "font-larger").click()
        self.wait_for(lambda d: self.frame_style("html", "font-size") != before["size"])
        self.assertEqual(self.frame_style("html", "font-size"), f"{16 * 1.27:.2f}px".rstrip("0").rstrip("."))
        self.driver.find_element(By.CSS_SELECTOR, "input[name=font][value=sans]").click()
        self.wait_for(lambda d: self.frame_style("p", "font-family") != before["font"])
        self.assertIn("sans", self.frame_style("p", "font-family").lower())
        self.driver.find_element(By.CSS_SELECTOR, "input[name=theme][value=night]").click()
        self.wait_for(lambda d: self.frame_style("body", "background-color") == "rgb(0, 0, 0)")
        self.assertEqual(self.frame_style("p", "color"), "rgb(255, 255, 255)", "the publisher's dark text gives way")
        self.driver.find_element(By.CSS_SELECTOR, "input[name=theme][value=sepia]").click()
        self.wait_for(lambda d: self.frame_style("body", "background-color") == "rgb(244, 236, 216)")
        self.driver.execute_script("const b = document.getElementById('brightness'); b.value = '60'; b.dispatchEvent(new Event('input'));")
        self.wait_for(lambda d: "brightness(0.6)" in d.execute_script("return getComputedStyle(window.shelfReader.view.frame).filter"))
        self.driver.execute_script("const s = document.getElementById('line-spacing'); s.value = '2'; s.dispatchEvent(new Event('change'));")
        self.wait_for(lambda d: self.frame_style("p", "line-height") != before["line"])
        size = float(self.frame_style("p", "font-size").rstrip("px"))
        self.assertAlmostEqual(float(self.frame_style("p", "line-height").rstrip("px")), 2 * size, delta=0.5)
        self.driver.execute_script("const s = document.getElementById('margins'); s.value = '3'; s.dispatchEvent(new Event('change'));")
        self.wait_for(lambda d: float(self.frame_style("html", "padding-left").rstrip("px")) > float(before["margin"].rstrip("px")))
        self.driver.find_element(By.CSS_SELECTOR, "input[name=flow][value=scrolled]").click()
        self.wait_for(lambda d: self.frame_style("html", "overflow-y") == "auto")
        self.assertEqual(self.frame_style("html", "column-width"), "auto", "scrolled: no columns")
        # The command line's settings are the same store: `shelf settings BOOK` sees the browser's choices.
        self.wait_for(lambda d: json.loads(self.server.shelf("settings", book, "--json").stdout)["stored"].get("theme") == "sepia")
        stored = json.loads(self.server.shelf("settings", book, "--json").stdout)["stored"]
        self.assertEqual((stored.get("font"), stored.get("fontScale")), ("sans", 127))

    def test_settings_made_by_the_command_line_are_applied(self):
        book = self.add_fixture("reflowable")
        self.server.shelf("settings", book, "--theme", "night", "--font-scale", "150")
        self.open_reader(book)
        self.assertEqual(self.frame_style("body", "background-color"), "rgb(0, 0, 0)")
        self.assertEqual(self.frame_style("html", "font-size"), "24px")
        self.assertIn("theme-night", self.driver.find_element(By.TAG_NAME, "body").get_attribute("class"))

    def test_axe_finds_nothing_in_each_theme(self):
        book = self.add_fixture("reflowable")
        for theme in ("day", "night", "sepia"):
            with self.subTest(theme=theme):
                self.server.shelf("settings", book, "--theme", theme)
                self.open_reader(book)
                self.check_page(f"reader-{theme}")
                self.driver.find_element(By.ID, "open-display").click()
                self.find("#display[open]")
                self.check_page(f"reader-{theme}-display")


class ToolWordsTests(ReaderTestCase):
    def test_every_tool_shows_its_word_not_its_icon_alone(self):
        # The seeds' accessibility notes: nothing shown by an icon alone. A 1280-pixel window hid every word of the
        # top bar (Display, Contents, Bookmarks, ...), and a phone-sized one those of the bottom bar too.
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        shown = "return [...document.querySelectorAll('.tools button span, .bar.bottom button span')]" \
                ".filter(s => s.getBoundingClientRect().width < 8).map(s => s.textContent)"
        for width in (1280, 900, 375):
            self.driver.set_window_size(width, 800)
            time.sleep(0.3)
            self.assertEqual(self.driver.execute_script(shown), [], f"words hidden at {width} pixels")
            # Every tool stays inside the window.
            outside = self.driver.execute_script(
                "return [...document.querySelectorAll('.tools button, .bar.bottom button')]"
                ".filter(b => b.getBoundingClientRect().right > window.innerWidth + 1).map(b => b.textContent.trim())")
            self.assertEqual(outside, [], f"tools outside the window at {width} pixels")
            self.check_page(f"reader-tools-{width}")


class CannotOpenTests(ReaderTestCase):
    def test_a_book_that_cannot_be_opened_says_why_on_the_page(self):
        # The reason was said only to screen readers (a visually hidden alert): the page showed a blank book with
        # every tool still offered.
        self.driver.get(f"{self.server.url}/reader.html?book=no-such-book")
        self.wait_for(lambda d: d.find_element(By.ID, "title").text == "The book could not be opened")
        self.wait_for(lambda d: "No book with id no-such-book is on the shelf" in d.find_element(By.ID, "book").text,
                      message="the reason on the page")
        self.assertIn("Back to My Books", self.driver.find_element(By.ID, "book").text)
        enabled = self.driver.execute_script(
            "return [...document.querySelectorAll('.tools button, .bar.bottom button')].filter(b => !b.disabled).map(b => b.id)")
        self.assertEqual(enabled, [], "no tool is offered for a book that is not open")
        self.check_page("reader-cannot-open")


class PlaceTests(ReaderTestCase):
    def test_a_page_turn_moves_the_place_shelf_read_reads(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        start = self.reader("r.page")
        self.reader("document.getElementById('book').focus()")
        for _ in range(40):
            self.press(Keys.ARROW_RIGHT)
            if self.reader("r.page") != start:
                break
        page = self.reader("r.page")
        self.assertGreater(page, start)
        # The browser saves a moment after the last turn; `shelf read` is asked once that save has been answered.
        # Asked before, it reads the page before the turn and, as it saves the page it shows, writes that back over
        # the browser's (the lost update that made this test fail now and then under load).
        self.wait_for(lambda d: self.reader("r.savedPage") == page, message="the browser's save of the turn")
        self.assertEqual(self.place(book)["page"], page, "`shelf read` at the browser's page")
        self.wait_for(lambda d: f"page {page} of" in self.polite().lower(), message="the turn announced")

    def test_the_reader_offers_the_place_shelf_read_moved_to(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        pages = self.reader("r.pages")
        self.server.shelf("read", book, "--goto", str(pages - 1))
        self.driver.execute_script("window.dispatchEvent(new Event('focus'))")
        self.wait_for(lambda d: d.find_element(By.ID, "notice").is_displayed())
        self.assertIn(f"page {pages - 1}", self.driver.find_element(By.ID, "notice-text").text)
        self.driver.find_element(By.ID, "notice-go").click()
        self.wait_for(lambda d: self.reader("r.page") == pages - 1)


class NavigationTests(ReaderTestCase):
    def test_the_table_of_contents_marks_the_current_entry_and_lands_on_a_fragment(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        self.driver.find_element(By.ID, "open-toc").click()
        self.find("#toc[open]")
        current = self.focused()
        self.assertEqual(current.get_attribute("aria-current"), "location")
        self.assertIn("Chapter One", current.text)
        nested = self.driver.find_elements(By.CSS_SELECTOR, "#toc-list ol a")
        self.assertEqual([a.text.split("\n")[0] for a in nested], ["The Storm"], "the TOC keeps its nesting")
        nested[0].click()
        self.wait_for(lambda d: not d.find_elements(By.CSS_SELECTOR, "#toc[open]"))
        # The page shown holds the heading the fragment names.
        visible = self.driver.execute_script(
            "const v = window.shelfReader.view; const r = v.document.getElementById('storm').getBoundingClientRect();"
            "return r.left >= 0 && r.right <= v.width;")
        self.assertTrue(visible)
        self.assertGreater(self.reader("r.view.page"), 0)
        self.assertEqual(self.focused().get_attribute("id"), "open-toc", "focus returns to the control that opened the panel")

    def test_bookmarks_are_added_listed_followed_and_removed(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        page = self.reader("r.page")
        toggle = self.driver.find_element(By.ID, "bookmark-page")
        toggle.click()
        self.wait_for(lambda d: toggle.get_attribute("aria-pressed") == "true")
        marks = self.api("GET", "/api/reader/bookmarks?" + urllib.parse.urlencode({"book": book}))
        self.assertEqual([m["page"] for m in marks], [page])
        self.assertEqual(json.loads(self.server.shelf("bookmarks", book, "--json").stdout)[0]["page"], page)
        self.driver.find_element(By.ID, "next-page").click()
        self.wait_for(lambda d: toggle.get_attribute("aria-pressed") == "false" or self.reader("r.page") == page)
        self.driver.find_element(By.ID, "open-bookmarks").click()
        self.find("#bookmarks[open]")
        self.check_page("reader-bookmarks")
        self.driver.find_element(By.CSS_SELECTOR, "#bookmark-list a").click()
        self.wait_for(lambda d: self.reader("r.page") == page)
        self.assertEqual(toggle.get_attribute("aria-pressed"), "true", "a bookmarked page shows as bookmarked")
        toggle.click()
        self.wait_for(lambda d: toggle.get_attribute("aria-pressed") == "false")
        self.assertEqual(json.loads(self.server.shelf("bookmarks", book, "--json").stdout), [])

    def test_search_lists_hits_in_context_and_goes_to_each(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        self.driver.find_element(By.ID, "open-search").click()
        field = self.find("#search-query")
        self.assertEqual(self.focused(), field)
        field.send_keys("storm came in", Keys.ENTER)
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results li"))
        hits = self.driver.find_elements(By.CSS_SELECTOR, "#search-results li")
        self.assertEqual(len(hits), 20)
        self.assertIn("storm came in", hits[0].find_element(By.TAG_NAME, "mark").text.lower())
        self.check_page("reader-search")
        hits[4].find_element(By.TAG_NAME, "a").click()
        self.wait_for(lambda d: "Hit 5 of 20" in self.polite())
        highlighted = self.driver.execute_script(
            "const v = window.shelfReader.view; const h = v.window.CSS.highlights.get('shelf-hit'); if (!h) return null;"
            "const range = [...h][0]; const r = range.getBoundingClientRect(); return [range.toString(), r.left >= 0 && r.right <= v.width];")
        self.assertIn("storm came in", highlighted[0].lower())
        self.assertTrue(highlighted[1], "the hit is on the page shown")

    def test_share_copies_the_passage_with_title_and_author(self):
        book = self.add_fixture("reflowable")
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": self.server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.open_reader(book)
        self.driver.find_element(By.ID, "share").click()
        self.wait_for(lambda d: "Copied to the clipboard" in self.polite())
        copied = self.driver.execute_async_script("const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('refused: ' + e));")
        self.assertIn("The Lighthouse Fixture", copied)
        self.assertIn("Maren Holt", copied)
        self.assertIn("Chapter One", copied)


class SecurityTests(ReaderTestCase):
    def test_a_books_script_never_runs_nor_reaches_the_api_or_the_cookie(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        time.sleep(1)  # time for a script to have run, had it been allowed to
        marks = self.driver.execute_script(
            "const d = window.shelfReader.view.document; return [d.title, d.body.getAttribute('data-script'),"
            "d.documentElement.getAttribute('data-api'), d.documentElement.getAttribute('data-cookie'),"
            "window.shelfReader.view.frame.getAttribute('sandbox')]")
        self.assertEqual(marks, ["Chapter One", None, None, None, "allow-same-origin"])
        # The server sends the chapter with a sandbox that allows no script, whatever frame shows it.
        base = self.reader("r.base")
        request = urllib.request.Request(self.server.url + base + "OEBPS/chapter1.xhtml")
        with urllib.request.urlopen(request, timeout=30) as answer:
            policy = answer.headers["Content-Security-Policy"]
        self.assertIn("sandbox allow-same-origin", policy)
        self.assertNotIn("allow-scripts", policy)
        self.assertNotIn("script-src", policy)
        self.assertIn("default-src 'none'", policy)


class KeyboardTests(ReaderTestCase):
    def test_reading_by_keyboard_alone(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        start = self.reader("r.page")
        next_button = self.tab_to(lambda e: e.get_attribute("id") == "next-page")
        for _ in range(40):
            self.press(Keys.ENTER)
            if self.reader("r.page") != start:
                break
        self.assertGreater(self.reader("r.page"), start)
        self.assertEqual(self.focused().get_attribute("id"), "next-page", "focus stays on the control after a turn")
        self.wait_for(lambda d: f"page {self.reader('r.page')} of" in self.polite().lower())
        # Contents by keyboard: the panel opens on the current entry; Tab to the next chapter; Enter goes there.
        self.tab_to(lambda e: e.get_attribute("id") == "bottom-toc", backwards=True)
        self.press(Keys.ENTER)
        self.find("#toc[open]")
        self.tab_to(lambda e: "Chapter Two" in e.text)
        self.press(Keys.ENTER)
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter2.xhtml")
        self.assertEqual(self.focused().get_attribute("id"), "bottom-toc")
        # Escape closes a panel and gives the focus back.
        self.press(Keys.ENTER)
        self.find("#toc[open]")
        self.press(Keys.ESCAPE)
        self.wait_for(lambda d: not d.find_elements(By.CSS_SELECTOR, "#toc[open]"))
        self.assertEqual(self.focused().get_attribute("id"), "bottom-toc")


if __name__ == "__main__":
    unittest.main()


class FrameTests(ReaderTestCase):
    def test_a_books_own_pages_show_in_its_frames_and_nothing_else_does(self):
        # An interactive figure or a map in an iframe, object or embed of the book's own resources: shown. Failed
        # before: the book's policy allowed no frame or object at all, so each showed a broken frame.
        book = self.add_fixture("framed")
        self.open_reader(book)
        seen = lambda script: self.driver.execute_script("const d = window.shelfReader.view.document; " + script)
        self.wait_for(lambda d: seen("const f = d.getElementById('own-frame'); return f.contentDocument && "
                                     "f.contentDocument.body && f.contentDocument.body.textContent") == "FIGURE ONE OF THE BOOK",
                      message="the book's page in its iframe")
        self.wait_for(lambda d: seen("const o = d.getElementById('own-object').contentDocument; return !!(o && o.getElementById('svg-text'))"),
                      message="the book's picture in its object")
        self.wait_for(lambda d: seen("const e = d.getElementById('own-embed').getSVGDocument(); return !!(e && e.getElementById('svg-text'))"),
                      message="the book's picture in its embed")
        # The app's API in a frame of the book: the server refuses it (not the app's own call), as it says.
        self.wait_for(lambda d: any("GET /api/status" in line for line in self.server.refusals()),
                      message=f"the server refusing the book's frame of the API: {self.server.refusals()}")
