"""The reader's place as a Readium locator (issue 31) and the page counter (issue 37): the browser saves the screen
it shows (its chapter, progression and first words); `shelf read` opens on the page holding those words, and the
browser opens where `shelf read` left off; a place made at one width lands on the same words at another; the
counter changes exactly when the screen does; a bookmark leads back to the screen it was made on."""

import json
import re
import unittest
import urllib.parse

from selenium.webdriver.common.by import By

from test_reader import ReaderTestCase

# The words of the book's page that are on the screen, in order (a word whose box's middle is in the window).
SHOWN_WORDS = """
const range = document.createRange(), words = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  for (const word of node.nodeValue.matchAll(/\\S+/g)) {
    range.setStart(node, word.index);
    range.setEnd(node, word.index + word[0].length);
    const box = range.getBoundingClientRect();
    const x = (box.left + box.right) / 2, y = (box.top + box.bottom) / 2;
    if (box.width > 0 && x >= 0 && x < innerWidth && y >= 0 && y < innerHeight) words.push(word[0]);
  }
}
return words;
"""


def letters(text):
    """Text as the host compares quotes: letters and digits only, in lower case."""
    return re.sub(r"[\W_]+", "", text.lower())


class PlaceTestCase(ReaderTestCase):
    def open_large(self, book, scale=250):
        """Opens `book` with its text large: a chapter then has more screens than the book has pages in it."""
        self.api("POST", "/api/reader/settings", {"book": book, "fontScale": scale})
        self.open_reader(book)

    def shown(self):
        for _ in range(5):
            words = self.in_book(SHOWN_WORDS)
            if words:
                return words
        self.fail("the screen shows no words")

    def turn(self, direction=1):
        before = self.driver.execute_script("const v = window.shelfReader.view; return [v.href, v.page]")
        self.driver.execute_script(f"return window.shelfReader.{'next' if direction > 0 else 'previous'}()")
        self.wait_for(lambda d: d.execute_script("const v = window.shelfReader.view; return [v.href, v.page]") != before
                      and d.execute_script("return document.querySelectorAll('#viewport iframe').length") == 1,
                      message="the turn")

    def saved(self):
        """Waits for the browser's save of the screen shown, and answers the place the host keeps."""
        self.wait_for(lambda d: self.reader("r.savedKey === r.screenKey() && !!r.savedPage"), message="the place saved")
        return self.api("GET", "/api/reader/place?" + urllib.parse.urlencode({"book": self.book}))

    def terminal_page(self):
        answer = self.server.shelf("read", self.book, "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        return json.loads(answer.stdout)


class PlaceAsLocatorTests(PlaceTestCase):
    def test_a_screen_saved_in_the_browser_opens_on_its_words_in_shelf_read(self):
        # Failed before: the browser saved a page number (its position), and `shelf read` showed that position's
        # page, which starts screens before the words the patron was reading.
        self.book = self.add_fixture("reflowable")
        self.open_large(self.book)
        for _ in range(5):
            self.turn()
        words = self.shown()
        place = self.saved()
        self.assertEqual(place["locator"]["href"], self.reader("r.view.href"))
        self.assertEqual(letters(place["locator"]["text"]["highlight"])[:30], letters(" ".join(words))[:30],
                         "the place holds the screen's first words")
        page = self.terminal_page()
        self.assertIn(letters(" ".join(words[:6])), letters(page["text"]), "`shelf read` shows the screen's first words")
        self.assertEqual(page["page"], place["page"])

    def test_a_page_read_in_shelf_read_opens_on_its_words_in_the_browser(self):
        # Failed before: the browser went to the page's progression, a screen before or after its first words.
        self.book = self.add_fixture("reflowable")
        self.api("POST", "/api/reader/settings", {"book": self.book, "fontScale": 250})
        opened = self.terminal_page()
        answer = self.server.shelf("read", self.book, "--goto", str(opened["page"] + 2), "--json")
        self.assertEqual(answer.returncode, 0, answer.stderr)
        page = json.loads(answer.stdout)
        first = letters(page["locator"]["text"]["highlight"])[:24]
        self.open_reader(self.book)
        self.wait_for(lambda d: first in letters(" ".join(self.shown())), message=f"the words {first} on the screen")
        self.assertEqual(self.reader("r.page"), page["page"])

    def test_a_place_saved_at_one_width_lands_on_its_words_at_another(self):
        # Another device is another window: the words decide, not the screen's number.
        self.book = self.add_fixture("reflowable")
        self.open_large(self.book)
        for _ in range(6):
            self.turn()
        words = self.shown()
        self.saved()
        self.driver.set_window_size(900, 1000)
        self.driver.refresh()
        self.open_reader(self.book)
        self.wait_for(lambda d: words[0] in self.shown() and " ".join(words[:3]) in " ".join(self.shown()),
                      message=f"the words {' '.join(words[:3])} on the screen at 900 pixels")


class CounterTests(PlaceTestCase):
    def test_the_counter_changes_exactly_when_the_screen_does(self):
        # Failed before: the counter counted the book's pages (positions), so it said the same page across several
        # screens of a chapter in large type ("Page 1 of 1" in a short chapter, "Page 50" twice in a long one).
        self.book = self.add_fixture("reflowable")
        self.open_large(self.book)
        self.assertGreater(self.reader("r.view.pages"), self.reader("r.pageMap.rangeOf(r.view.href, r.index).count"),
                           "the chapter has more screens than pages: the case the counter got wrong")
        labels, screens = [self.counter()], [self.shown()]
        while not self.reader("r.view.atEnd"):
            self.turn()
            labels.append(self.counter())
            screens.append(self.shown())
        count = self.reader("r.view.pages")
        self.assertEqual(labels, [f"Page {n} of {count}" for n in range(1, count + 1)], "one label a screen, in order")
        for before, after in zip(screens, screens[1:]):
            self.assertNotEqual(before, after)
        self.turn(-1)
        self.assertEqual(self.counter(), labels[-2], "turning back says the screen's own label again")


class BookmarkTests(PlaceTestCase):
    def test_a_bookmark_leads_back_to_the_screen_it_was_made_on(self):
        # Failed before: a bookmark was a page (position), followed to the screen where that page's words begin,
        # one screen or more before the one bookmarked.
        self.book = self.add_fixture("reflowable")
        self.open_large(self.book)
        for _ in range(3):
            self.turn()
        screen, label, words = self.reader("r.view.page"), self.counter(), self.shown()
        toggle = self.driver.find_element(By.ID, "bookmark-page")
        toggle.click()
        self.wait_for(lambda d: toggle.get_attribute("aria-pressed") == "true")
        mark = self.api("GET", "/api/reader/bookmarks?" + urllib.parse.urlencode({"book": self.book}))[0]
        self.assertEqual(letters(mark["locator"]["text"]["highlight"])[:30], letters(" ".join(words))[:30])
        self.turn()
        self.assertEqual(toggle.get_attribute("aria-pressed"), "false", "the next screen is not bookmarked")
        self.turn()
        self.driver.find_element(By.ID, "open-bookmarks").click()
        self.find("#bookmarks[open]")
        self.driver.find_element(By.CSS_SELECTOR, "#bookmark-list a").click()
        self.wait_for(lambda d: self.reader("r.view.page") == screen and self.counter() == label, message="the screen bookmarked")
        self.assertEqual(self.shown(), words, "the words of the screen bookmarked")
        self.assertEqual(toggle.get_attribute("aria-pressed"), "true")


if __name__ == "__main__":
    unittest.main()
