"""What EPUB 3.3 and EPUB Reading Systems 3.3 ask the reader to draw (issue 38), each on a small book of
epub3_fixtures whose page says what passes: paths inside the container, fallbacks, reading order, footnotes and
outside links, prefixed CSS, scrolled flow, fixed layout."""

import json
import os
import time
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

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


class HyphenationTests(EPUB3TestCase):
    def test_the_patrons_hyphenation_is_kept_by_the_host_and_applied_in_the_page(self):
        book = self.add_book("order")
        # A value the settings do not have is refused by the host, naming it.
        refused = self.server.shelf("settings", book, "--hyphens", "sometimes")
        self.assertEqual(refused.returncode, 64, refused.stderr)
        self.assertIn("hyphenation is publisher, on or off", refused.stderr)
        answer = self.server.shelf("settings", book, "--hyphens", "on", "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        self.assertEqual(json.loads(answer.stdout)["effective"]["hyphens"], "on")
        self.open_reader(book)
        self.assertEqual(self.frame_style("p", "hyphens"), "auto", "`shelf settings --hyphens on`, in the page")
        self.assertEqual(self.in_book("return document.documentElement.lang"), "en", "in the book's language")
        # Off in the Display panel: the page follows, and the host keeps it for `shelf settings`.
        self.find("#open-display").click()
        Select(self.find("#hyphens")).select_by_value("off")
        self.wait_for(lambda d: self.frame_style("p", "hyphens") == "manual", message="hyphenation off in the page")
        self.wait_for(lambda d: json.loads(self.server.shelf("settings", book, "--json").stdout)["stored"].get("hyphens") == "off",
                      message="the host keeps it")
        # The publisher's again: the book's own style sheet decides (this one says nothing: no hyphens).
        Select(self.find("#hyphens")).select_by_value("publisher")
        self.wait_for(lambda d: json.loads(self.server.shelf("settings", book, "--json").stdout)["stored"].get("hyphens") == "publisher")
        self.assertEqual(self.frame_style("p", "hyphens"), "manual")


class NoteAndLinkTests(EPUB3TestCase):
    def open_dialog(self, element_id):
        return self.driver.execute_script("return document.getElementById(arguments[0]).open", element_id)

    def test_a_note_reference_opens_the_note_in_a_pop_up_with_a_way_to_it(self):
        book = self.add_book("notes")
        self.open_reader(book)
        self.in_book("document.getElementById('ref1').click()")
        self.wait_for(lambda d: self.open_dialog("note"), message="the note's pop-up")
        self.assertIn("colza oil", self.text("#note-text"))
        self.assertEqual(self.reader("r.view.page"), 0, "the page stays where it was")
        self.check_page("epub3-footnote-pop-up")
        self.find("#note-go").click()
        self.wait_for(lambda d: not self.open_dialog("note"))
        self.wait_for(lambda d: self.reader("r.view.page") > 0, message="the page of the note")
        shown = self.in_book("const r = document.getElementById('fn1').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth;")
        self.assertTrue(shown, "the note is on the page shown")
        # An endnote in another chapter: its words come from there.
        self.reader("r.goTo({href: 'OEBPS/chapter1.xhtml', progression: 0})")
        self.wait_for(lambda d: self.reader("r.view.page") == 0)
        self.in_book("document.getElementById('ref2').click()")
        self.wait_for(lambda d: self.open_dialog("note"), message="the endnote's pop-up")
        self.assertIn("forty years", self.text("#note-text"))
        self.find("#note form button").click()
        self.wait_for(lambda d: not self.open_dialog("note"))
        self.assertEqual(self.reader("r.view.href"), "OEBPS/chapter1.xhtml", "closing the pop-up stays on the page")

    def test_a_link_out_of_the_book_opens_only_after_the_patron_agrees(self):
        book = self.add_book("notes")
        self.open_reader(book)
        self.in_book("document.getElementById('outside').click()")
        self.wait_for(lambda d: self.open_dialog("leave"), message="the question before leaving")
        self.assertIn("http://127.0.0.1:9/harbour", self.text("#leave"))
        self.assertEqual(len(self.driver.window_handles), 1, "nothing opened before the patron agrees")
        self.check_page("epub3-leave-the-book")
        self.find("#leave form button").click()
        self.wait_for(lambda d: not self.open_dialog("leave"))
        self.assertEqual(len(self.driver.window_handles), 1, "staying opens nothing")
        self.in_book("document.getElementById('outside').click()")
        self.wait_for(lambda d: self.open_dialog("leave"))
        self.find("#leave-open").click()
        self.wait_for(lambda d: len(d.window_handles) == 2, message="the link opened in a new tab")

    def test_a_mail_address_goes_to_the_mail_program(self):
        book = self.add_book("notes")
        self.open_reader(book)
        # What the app's page follows is seen as it follows it (a mailto: link the browser hands to the mail program).
        self.driver.execute_script("""window.__followed = [];
            document.addEventListener('click', (e) => { if (e.target.href) window.__followed.push(e.target.href); }, true);""")
        self.in_book("document.getElementById('mail').click()")
        self.wait_for(lambda d: d.execute_script("return window.__followed").count("mailto:keeper@example.org") == 1,
                      message="the mailto: link followed by the app's page")
        self.assertFalse(self.open_dialog("leave"), "mail is not a page to leave the book for")


class FixedLayoutTests(EPUB3TestCase):
    def heights(self):
        return self.reader("r.view.frames.map(p => Math.round(p.frame.getBoundingClientRect().height))")

    def test_spread_properties_decide_the_spreads_and_a_page_alone_keeps_the_scale(self):
        book = self.add_book("spreads")
        self.open_reader(book)
        self.assertEqual(self.reader("r.view.shown"), [0, 1], "the book opens with a spread (left, right)")
        spread_height = self.heights()[0]
        for shown in ([2], [3], [4, 5]):
            self.driver.find_element(By.ID, "next-page").click()
            self.wait_for(lambda d: self.reader("r.view.shown") == shown, message=f"the pages {shown}")
            for height in self.heights():
                self.assertAlmostEqual(height, spread_height, delta=2, msg=f"{shown}: each page at the scale of a spread")
        # The first width and height of the viewport meta count, not the later ones.
        self.assertEqual(self.reader("r.view.frames.map(p => [p.width, p.height])"), [[600, 800], [600, 800]])
        boxes = self.reader("r.view.frames.map(p => p.box.getBoundingClientRect().left)")
        self.assertLess(boxes[0], boxes[1], "the left page on the left")
        time.sleep(0.5)  # for the screenshot alone: the frames' first paint
        self.screenshot("epub3-fixed-spread")
        self.driver.find_element(By.ID, "previous-page").click()
        self.wait_for(lambda d: self.reader("r.view.shown") == [3], message="back to the right page alone")

    def test_a_reflowable_item_in_a_fixed_layout_book_is_reflowed(self):
        book = self.add_book("spreads")
        self.open_reader(book)
        self.reader("r.goTo({href: 'OEBPS/page7.xhtml', progression: 0})")
        self.wait_for(lambda d: self.reader("r.view.shown") == [6], message="page 7 alone")
        area = self.reader("[document.getElementById('viewport').clientWidth, document.getElementById('viewport').clientHeight]")
        drawn = self.reader("(b => [b.width, b.height])(r.view.frames[0].frame.getBoundingClientRect())")
        self.assertAlmostEqual(drawn[0], area[0], delta=2, msg="the whole width of the reading area, not a strip")
        self.assertAlmostEqual(drawn[1], area[1], delta=2)
        self.assertTrue(self.in_book("const s = document.scrollingElement; return s.scrollHeight > innerHeight + 100;"),
                        "one scrolled column")
        self.assertTrue(self.in_book("return !!document.getElementById('shelf-reader-style')"), "the patron's settings laid over it")
        time.sleep(0.5)  # for the screenshot alone: the frame's first paint
        self.screenshot("epub3-fixed-reflowed-item")


    def test_a_fixed_layout_page_in_a_reflowable_book_is_drawn_whole(self):
        book = self.add_book("fixed_page")
        self.open_reader(book)
        for _ in range(40):
            if self.reader("r.view.href") == "OEBPS/plate.xhtml":
                break
            self.driver.find_element(By.ID, "next-page").click()
            self.wait_for(lambda d: not self.reader("r.busy"))
        self.assertEqual(self.reader("r.view.href"), "OEBPS/plate.xhtml", "Next from chapter 1 goes to the plate")
        self.assertTrue(self.reader("r.view.fixedPage"), "drawn as a fixed-layout page")
        area = self.reader("(b => [b.left, b.top, b.width, b.height])(document.getElementById('viewport').getBoundingClientRect())")
        drawn = self.reader("(b => [b.left, b.top, b.width, b.height])(r.view.frame.getBoundingClientRect())")
        # Its viewport's 600 x 800, scaled to the reading area's height, in its middle.
        self.assertAlmostEqual(drawn[3], area[3], delta=2, msg="as tall as the reading area")
        self.assertAlmostEqual(drawn[2], area[3] * 600 / 800, delta=2, msg="its declared proportions")
        self.assertAlmostEqual(drawn[0] - area[0], (area[2] - drawn[2]) / 2, delta=2, msg="centred")
        self.assertEqual(self.in_book("return [innerWidth, innerHeight]"), [600, 800], "laid out at its declared size")
        self.assertFalse(self.in_book("return !!document.getElementById('shelf-reader-style')"), "not laid out as text")
        self.assertRegex(self.counter(), r"^Page \d+ of \d+$")
        time.sleep(0.5)  # for the screenshot alone: the frame's first paint
        self.screenshot("epub3-fixed-page-in-reflowable")
        # One page: Next goes on to chapter 2, laid out as text again; Previous comes back to the plate.
        self.driver.find_element(By.ID, "next-page").click()
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter2.xhtml", message="chapter 2")
        self.assertFalse(self.reader("r.view.fixedPage"))
        self.assertTrue(self.in_book("return !!document.getElementById('shelf-reader-style')"))
        self.driver.find_element(By.ID, "previous-page").click()
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/plate.xhtml", message="back to the plate")


class ReadingOrderTests(EPUB3TestCase):
    def test_a_link_to_a_page_outside_the_reading_order_opens_it_with_a_way_back(self):
        book = self.add_book("order")
        self.open_reader(book)
        page = self.counter()
        self.in_book("document.getElementById('to-side').click()")
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/side.xhtml", message="the side note")
        self.wait_for(lambda d: self.in_book("return !!document.getElementById('side')"), message="the side note drawn")
        self.assertTrue(self.find("#aside").is_displayed(), "the bar that leads back")
        self.assertIn("outside the book's reading order", self.text("#aside"))
        self.check_page("epub3-outside-reading-order")
        self.find("#aside-back").click()
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter1.xhtml", message="back where the link was")
        self.assertFalse(self.find("#aside").is_displayed())
        self.assertEqual(self.counter(), page)
        # Turning past the side note's last page goes back too.
        self.in_book("document.getElementById('to-side').click()")
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/side.xhtml")
        self.driver.find_element(By.ID, "next-page").click()
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter1.xhtml", message="back after the last page")

    def test_a_right_to_left_language_without_a_declared_progression_goes_right_to_left(self):
        book = self.add_book("arabic")
        self.open_reader(book)
        self.assertEqual(self.reader("r.manifest.metadata.readingProgression"), "auto")
        self.assertTrue(self.reader("r.rtl"), "Arabic goes right to left")
        self.assertTrue(self.reader("r.view.rtl"), "the page's text runs right to left")
        self.reader("document.getElementById('book').focus()")
        self.press(Keys.ARROW_LEFT)
        self.wait_for(lambda d: self.reader("r.view.page") == 1, message="the left arrow turns forward")
        self.assertLess(self.in_book("return document.scrollingElement.scrollLeft"), 0, "the columns run to the left")


class DuplicateSpineEntryTests(EPUB3TestCase):
    """One resource listed twice in the spine (the refrain after chapter 1 and after chapter 2)."""

    def turn_to_entry(self, index):
        for _ in range(40):
            if self.reader("r.index") == index:
                return
            self.driver.find_element(By.ID, "next-page").click()
            self.wait_for(lambda d: not self.reader("r.busy"))
        self.fail(f"Next never reached reading-order entry {index}")

    def test_each_spine_entry_of_one_resource_is_a_page_of_its_own(self):
        book = self.add_book("twice")
        self.open_reader(book)
        self.assertEqual(self.reader("r.items.map(i => i.href)"), ["OEBPS/chapter1.xhtml", "OEBPS/refrain.xhtml",
                                                                   "OEBPS/chapter2.xhtml", "OEBPS/refrain.xhtml"])
        self.assertEqual(self.reader("r.pages"), 16, "the pages of both entries are counted")
        self.turn_to_entry(1)
        self.assertEqual(self.reader("r.page"), 5, "the refrain after chapter 1")
        self.turn_to_entry(2)
        self.assertEqual(self.reader("r.view.href"), "OEBPS/chapter2.xhtml")
        # Next goes on to the refrain again, as its second entry: its own pages, further into the book.
        self.turn_to_entry(3)
        self.assertEqual(self.reader("r.view.href"), "OEBPS/refrain.xhtml")
        self.assertEqual(self.reader("r.page"), 13)
        self.assertEqual(self.driver.find_element(By.ID, "percent").text, "81%")
        self.assertEqual(self.driver.find_element(By.ID, "chapter").text, "Refrain")
        time.sleep(0.5)  # for the screenshot alone: the frame's first paint
        self.screenshot("epub3-duplicate-spine-entry")
        self.wait_for(lambda d: self.reader("r.savedPage") == 13, message="the place saved in the second entry")
        self.assertEqual(self.place(book)["page"], 13, "`shelf read` at the second entry")
        # Reopened, the reader comes back to the second entry, not the first.
        self.open_reader(book)
        self.wait_for(lambda d: self.reader("r.index") == 3, message="the second entry again")
        self.assertEqual(self.reader("r.page"), 13)
        # Back from it goes to chapter 2, not chapter 1.
        self.driver.find_element(By.ID, "previous-page").click()
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter2.xhtml", message="chapter 2 before it")

    def go_to_page(self, page, index):
        """Goes to the first screen of `page` (the host's count), in reading-order entry `index`."""
        self.reader(f"r.goToPage({page})")
        self.wait_for(lambda d: self.reader("r.index") == index and self.reader("r.page") == page and not self.reader("r.busy"),
                      message=f"page {page} in entry {index}")
        self.assertEqual(self.reader("r.view.page"), 0, "the entry's first screen")

    def marks(self, book):
        return sorted(m["page"] for m in json.loads(self.server.shelf("bookmarks", book, "--json").stdout))

    def test_a_bookmark_is_marked_in_the_entry_it_was_made_in_only(self):
        book = self.add_book("twice")
        self.open_reader(book)
        toggle = self.driver.find_element(By.ID, "bookmark-page")
        pressed = lambda: toggle.get_attribute("aria-pressed")
        # The second refrain's first screen, bookmarked.
        self.go_to_page(13, 3)
        toggle.click()
        self.wait_for(lambda d: pressed() == "true", message="the second refrain's screen bookmarked")
        self.assertEqual(self.marks(book), [13], "`shelf bookmarks` places it in the second refrain")
        # The same screen of the first refrain (the same words, the same progression) has no bookmark.
        self.go_to_page(5, 1)
        self.assertEqual(pressed(), "false", "the first refrain is not bookmarked")
        toggle.click()
        self.wait_for(lambda d: pressed() == "true", message="the first refrain's screen bookmarked")
        self.assertEqual(self.marks(book), [5, 13])
        # Removing the second refrain's bookmark leaves the first's.
        self.go_to_page(13, 3)
        self.assertEqual(pressed(), "true")
        toggle.click()
        self.wait_for(lambda d: pressed() == "false", message="the second refrain's bookmark removed")
        self.assertEqual(self.marks(book), [5], "only the second refrain's bookmark is removed")
        # The list goes to the first refrain's bookmark, where it is marked.
        self.driver.find_element(By.ID, "open-bookmarks").click()
        self.find("#bookmarks[open]")
        links = self.driver.find_elements(By.CSS_SELECTOR, "#bookmark-list a")
        self.assertEqual([a.find_element(By.CSS_SELECTOR, ".page").text for a in links], ["page 5"])
        links[0].click()
        self.wait_for(lambda d: self.reader("r.index") == 1 and not self.reader("r.busy"), message="the first refrain")
        self.wait_for(lambda d: pressed() == "true", message="the first refrain's screen bookmarked")

    def test_the_contents_mark_the_entry_of_the_spine_entry_read(self):
        book = self.add_book("twice")
        self.open_reader(book)
        current = lambda: self.reader("document.querySelector('#toc-list a[aria-current]')?.textContent ?? ''")
        for page, index, title in ((5, 1, "Refrain"), (9, 2, "Chapter 2"), (13, 3, "Refrain"), (16, 3, "Refrain")):
            with self.subTest(page=page):
                self.reader(f"r.goToPage({page})")
                self.wait_for(lambda d: self.reader("r.index") == index and self.reader("r.page") == page and not self.reader("r.busy"),
                              message=f"page {page}")
                self.assertTrue(current().startswith(title), f"page {page} marks {title}, not {current()!r}")
        # The panel opens on it.
        self.driver.find_element(By.ID, "open-toc").click()
        self.find("#toc[open]")
        self.assertEqual(self.focused().get_attribute("aria-current"), "location")
        self.assertIn("Refrain", self.focused().text)


class FlowTests(EPUB3TestCase):
    def scroll(self, pixels):
        """The mouse wheel over the middle of the reading area, as Chromium's input takes it (WebDriver's wheel does not reach a frame of
        another origin)."""
        box = self.driver.execute_script("const r = document.getElementById('viewport').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];")
        self.driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": box[0], "y": box[1], "deltaX": 0, "deltaY": pixels})

    def test_the_flow_the_book_declares_is_the_default_and_the_patron_overrides_it(self):
        book = self.add_book("flow")
        self.open_reader(book)
        self.assertTrue(self.reader("r.view.scrolled"), "rendition:flow scrolled-continuous: the chapter scrolls")
        self.assertTrue(self.driver.execute_script("return document.body.classList.contains('scrolled')"))
        # The chapters follow each other as one scroll: scrolling on past the end of chapter 1 brings chapter 2.
        for _ in range(30):
            if self.reader("r.view.href") != "OEBPS/chapter1.xhtml":
                break
            self.scroll(1500)
            time.sleep(0.3)  # the wheel scrolls smoothly
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter2.xhtml", message="chapter 2 after chapter 1")
        # One scroll: chapter 2's frame right under chapter 1's, both in it.
        frames = self.reader("r.view.parts.map(p => [p.href, p.frame.offsetTop, p.frame.offsetHeight])")
        self.assertEqual([f[0] for f in frames[:2]], ["OEBPS/chapter1.xhtml", "OEBPS/chapter2.xhtml"])
        self.assertEqual(frames[1][1], frames[0][1] + frames[0][2], "chapter 2 starts where chapter 1 ends")
        self.assertGreater(frames[0][2], 2 * self.reader("r.view.height"), "a frame as tall as its chapter")
        self.wait_for(lambda d: self.counter() == f"Page {self.reader('r.page')} of 3" and self.reader("r.page") == 2,
                      message="the page label of chapter 2")
        # Scrolling back up goes into chapter 1 again, at its end: the place, the page and `shelf read` follow.
        self.scroll(-600)
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter1.xhtml", message="back up into chapter 1")
        self.assertGreater(self.reader("r.view.progression"), 0.9, "at the end of chapter 1")
        self.wait_for(lambda d: self.reader("r.page") == 1 and self.counter() == "Page 1 of 3", message="chapter 1's page")
        self.wait_for(lambda d: self.reader("r.savedPage") == 1, message="the place saved in chapter 1")
        self.assertEqual(self.place(book)["locator"]["href"], "OEBPS/chapter1.xhtml", "`shelf read` in chapter 1")
        # The words the place keeps are the screen's (the end of chapter 1), not the chapter's first.
        words = self.reader("r.view.ask('place')")
        self.assertRegex(words["highlight"], r"^Paragraph 1\.(5\d|4\d)|^End of chapter 1")
        # For the screenshot: the end of chapter 1 and the start of chapter 2 on one screen.
        self.reader("r.view.scroller.scrollTop = r.view.parts[1].frame.offsetTop - r.view.height / 2")
        time.sleep(0.5)  # the frames' paint
        self.screenshot("epub3-scrolled-continuous")
        # Opened again at chapter 2's start, chapter 1 is above it in the scroll: scrolling up goes into it.
        self.reader("r.goTo({href: 'OEBPS/chapter2.xhtml', progression: 0})")
        self.wait_for(lambda d: self.reader("r.savedPage") == 2, message="the place saved in chapter 2")
        self.open_reader(book)
        self.assertEqual(self.reader("r.view.href"), "OEBPS/chapter2.xhtml")
        self.wait_for(lambda d: self.reader("r.view.parts.map(p => p.href).includes('OEBPS/chapter1.xhtml')"),
                      message="chapter 1 put above chapter 2")
        self.assertEqual(self.reader("r.view.href"), "OEBPS/chapter2.xhtml", "the screen stays on chapter 2")
        self.scroll(-300)
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter1.xhtml", message="up into chapter 1")
        # Next page scrolls a screen on, into chapter 2 again.
        self.driver.find_element(By.ID, "next-page").click()
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter2.xhtml", message="a screen on, chapter 2")
        self.wait_for(lambda d: self.counter() == "Page 2 of 3")
        # An item's own rendition:flow-paginated wins over the book's: chapter 3 is not in the scroll.
        self.assertNotIn("OEBPS/chapter3.xhtml", self.reader("r.view.parts.map(p => p.href)"))
        self.reader("r.goTo({href: 'OEBPS/chapter3.xhtml', progression: 0})")
        self.wait_for(lambda d: self.reader("r.view.href") == "OEBPS/chapter3.xhtml")
        self.assertFalse(self.reader("r.view.scrolled"), "chapter 3 asks for pages")
        # The patron's choice wins over the book's.
        self.reader("r.goTo({href: 'OEBPS/chapter1.xhtml', progression: 0})")
        self.wait_for(lambda d: self.reader("r.view.scrolled"))
        self.reader("r.changeSettings({flow: 'paginated'})")
        self.wait_for(lambda d: not self.reader("r.view.scrolled"), message="pages, as the patron chose")
        self.assertGreater(self.reader("r.view.pages"), 1)


if __name__ == "__main__":
    unittest.main()
