"""Use cases 1 and 2 of the audiobook requirements: browse by format with tabs, search within a format."""

import os
import signal

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from rig import BrowserTestCase


class CatalogTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()
        self.go("#/catalog")
        self.wait_for_text("titles loaded", "#catalog-summary")

    def tab(self, name):
        return self.find(f"#tab-{name}")

    def assert_chosen(self, name):
        for other in ["all", "ebook", "audiobook"]:
            self.assertEqual(self.tab(other).get_attribute("aria-selected"), "true" if other == name else "false", other)
        self.assertEqual(self.find("#catalog-results").get_attribute("aria-labelledby"), f"tab-{name}")

    def card_formats(self):
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#catalog-results .card .format")]

    def test_format_tabs_keep_focus_and_announce_with_the_mouse(self):
        self.assertEqual(self.find("[role=tablist]").get_attribute("aria-label"), "Formats")
        self.check_page("catalog-all")
        self.tab("audiobook").click()
        self.announced("titles loaded in Audiobooks")
        self.assert_chosen("audiobook")
        self.assertEqual(self.focused().get_attribute("id"), "tab-audiobook", "focus stays on the chosen tab")
        formats = self.card_formats()
        self.assertTrue(formats and all(f == "Audiobook" for f in formats), formats)
        self.check_page("catalog-audiobooks")
        self.tab("ebook").click()
        self.announced("titles loaded in eBooks")
        self.assertTrue(all(f == "eBook" for f in self.card_formats()))
        self.assert_chosen("ebook")
        # Availability and support are written out on every card.
        cards = self.text("#catalog-results")
        self.assertIn("available", cards)
        self.check_page("catalog-ebooks")

    def test_search_keeps_the_tab_and_says_when_nothing_was_found(self):
        self.tab("audiobook").click()
        self.announced("in Audiobooks")
        search = self.find("#catalog-search")
        search.send_keys("Sound", Keys.ENTER)
        self.announced("1 result for “Sound” in Audiobooks")
        self.assert_chosen("audiobook")
        self.assertIn("Sound of Rivers", self.text("#catalog-results"))
        search.clear()
        search.send_keys("Open", Keys.ENTER)
        self.announced("No results for “Open” in Audiobooks")
        self.assertIn("No results for “Open”", self.text("#catalog-summary"))
        self.check_page("catalog-search-no-results")
        # All shows both formats matching the search, each with its format in words.
        self.tab("all").click()
        self.announced("2 results for “Open” in All")
        self.assert_chosen("all")
        self.assertIn("The Open Road", self.text("#catalog-results"))
        self.assertIn("Open Classic", self.text("#catalog-results"))
        self.check_page("catalog-search-all")

    def test_a_search_still_names_the_library_searched(self):
        self.assertEqual(self.text("#library-title"), "Fake Public Library")
        self.find("#catalog-search").send_keys("Sound", Keys.ENTER)
        self.announced("1 result for “Sound”")
        # The feed of results is titled "Search results": the patron still sees which library they search.
        self.assertEqual(self.text("#library-title"), "Fake Public Library")

    def test_available_now_leaves_out_titles_with_no_free_copy(self):
        self.assertIn("Waiting Game", self.text("#catalog-results"))
        self.find("#available-now").click()
        self.announced("available now")
        self.assertNotIn("Waiting Game", self.text("#catalog-results"))
        self.assertIn("The Open Road", self.text("#catalog-results"))

    def test_the_same_with_the_keyboard_alone(self):
        # From the page's heading, Tab reaches the tab list; arrows choose a tab and focus stays on it.
        chosen = self.tab_to(lambda e: e.get_attribute("role") == "tab")
        self.assertEqual(chosen.get_attribute("aria-selected"), "true", "Tab lands on the chosen tab")
        self.press(Keys.END)
        self.announced("titles loaded in Audiobooks")
        self.assertEqual(self.focused().get_attribute("id"), "tab-audiobook")
        self.assert_chosen("audiobook")
        self.press(Keys.ARROW_LEFT)
        self.announced("titles loaded in eBooks")
        self.assertEqual(self.focused().get_attribute("id"), "tab-ebook")
        self.press(Keys.ARROW_RIGHT)
        self.announced("titles loaded in Audiobooks")
        # Back to the search field, type, Enter: the tab stays.
        self.tab_to(lambda e: e.get_attribute("id") == "catalog-search", backwards=True)
        self.press("zzz", Keys.ENTER)
        self.announced("No results for “zzz” in Audiobooks")
        self.assert_chosen("audiobook")
        self.check_page("catalog-keyboard-no-results")
        # A title's details open with Enter on its link.
        self.press(Keys.CONTROL + "a", Keys.BACKSPACE, "Rivers", Keys.ENTER)
        self.announced("1 result for “Rivers”")
        self.tab_to(lambda e: e.text == "Sound of Rivers")
        self.press(Keys.ENTER)
        self.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Sound of Rivers")
        self.assertEqual(self.focused().text, "Sound of Rivers", "the new page's heading has focus")

    def test_back_to_the_catalog_keeps_the_search_and_the_tab(self):
        # A patron searches Audiobooks, opens a result, and goes back by the page's own link: the search and the tab
        # are still there (README: format tabs stay selected while you browse and search).
        self.tab("audiobook").click()
        self.announced("titles loaded in Audiobooks")
        search = self.find("#catalog-search")
        search.send_keys("Harbour", Keys.ENTER)
        self.wait_for_text("1 result for “Harbour” in Audiobooks.", "#catalog-summary")
        self.driver.find_element(By.LINK_TEXT, "Quiet Harbour").click()
        self.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Quiet Harbour")
        self.driver.find_element(By.LINK_TEXT, "Back to the catalog").click()
        self.wait_for_text("1 result for “Harbour” in Audiobooks.", "#catalog-summary")
        self.assertEqual(self.find("#catalog-search").get_attribute("value"), "Harbour")
        self.assert_chosen("audiobook")


class SilentLibraryTests(BrowserTestCase):
    def test_a_library_that_does_not_answer_is_said_in_the_browsers_words(self):
        # The library stops answering (its process paused): the catalog says what happened and what to do once,
        # without the command line's environment variable or "a command's answers".
        self.add_library_and_sign_in()
        os.kill(self.library.process.pid, signal.SIGSTOP)
        self.addCleanup(os.kill, self.library.process.pid, signal.SIGCONT)
        self.go("#/catalog?format=ebook")
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "#catalog-results .message.error"), timeout=60)
        said = self.text("#catalog-results .message.error")
        self.assertIn("took too long to answer", said)
        self.assertNotIn("SHELF_", said)
        self.assertNotIn("command", said)
        self.assertEqual(said.lower().count("try again"), 1, said)
        self.check_page("catalog-library-silent")
