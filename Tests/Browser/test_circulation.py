"""Use cases 3 to 5: details, borrow (Get), My Books, reserve, Reservations, return and cancel; by mouse and by
keyboard; a lost connection leaves the button waiting."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from rig import BrowserTestCase


class CirculationTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()

    def details(self, entry_id):
        self.go(f"#/book?id={entry_id}")

    def test_details_show_format_availability_and_branch_holds(self):
        self.details("urn:fake:ebook-out")
        facts = self.text(".details dl")
        self.assertIn("Format", facts)
        self.assertIn("eBook", facts)
        self.assertIn("0 of 1 copy available", facts)
        self.assertIn("Reserve at Central Library", self.text(".branches"))
        self.assertIn("Reserve", [b.text for b in self.driver.find_elements(By.CSS_SELECTOR, ".actions button")])
        self.check_page("details-unavailable")

    def test_get_then_my_books_then_return_with_the_mouse(self):
        self.details("urn:fake:audio-free")
        self.assertIn("Audiobook", self.text(".details dl"))
        self.find("[data-action=borrow]").click()
        self.announced("Sound of Rivers")
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=return]"))
        self.assertIn("on loan", self.text("#availability").lower())
        self.check_page("details-loaned")
        self.go("#/my-books")
        loans = self.text("main")
        self.assertIn("Sound of Rivers", loans)
        self.assertIn("Audiobook", loans, "the format is written out")
        self.assertIn("Due back", loans)
        self.check_page("my-books")
        self.find("[data-action=return]").click()
        self.wait_for_text("Nothing on loan")
        self.assertFalse(self.library_on_loan("urn:fake:audio-free"))

    def library_on_loan(self, entry_id):
        loans = self.api("GET", "/api/loans")
        return any(loan["entry"]["id"] == entry_id for loan in loans["items"])

    def test_reserve_then_reservations_then_cancel_with_the_keyboard(self):
        self.details("urn:fake:ebook-out")
        self.tab_to_text("Reserve")
        self.press(Keys.ENTER)
        self.announced("Waiting Game")
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=cancel-hold]"))
        self.assertEqual(self.focused().get_attribute("data-action"), "cancel-hold", "focus moves to the new action")
        self.check_page("details-reserved")
        # To Reservations by the main navigation.
        self.tab_to(lambda e: e.text.startswith("Reservations"), backwards=True)
        self.press(Keys.ENTER)
        self.wait_for_text("in the queue")
        self.assertIn("Waiting Game", self.text("main"))
        self.check_page("reservations")
        self.tab_to_text("Cancel hold")
        self.press(Keys.ENTER)
        self.wait_for_text("No reservations")

    def test_get_with_the_keyboard_and_download(self):
        self.details("urn:fake:ebook-free")
        self.tab_to_text("Get")
        self.press(Keys.ENTER)
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=download]"))
        self.assertEqual(self.focused().get_attribute("data-action"), "download")
        self.press(Keys.ENTER)
        self.announced("Downloading “The Open Road”")
        self.announced("Downloaded “The Open Road”", timeout=60)

    def last_said(self):
        """What the polite live region says once the page has settled (a later announcement replaces an earlier one)."""
        return self.driver.find_element(By.ID, "announcer").get_attribute("textContent")

    def test_my_books_shows_and_says_what_a_download_or_return_did(self):
        # A download the library answers with a page that is no book: My Books says why, on the page and last.
        self.api("POST", "/api/book/borrow", {"id": "urn:fake:ebook-free"})
        self.library.control("fault", route="fulfil", kind="garbage")
        self.go("#/my-books")
        self.find("[data-action=download]").click()
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "main .message.error"), message="the failure on the page")
        failure = self.text("main .message.error")
        self.assertIn("The Open Road", failure)
        self.assertIn("did not finish", failure)
        self.wait_for(lambda d: "did not finish" in self.last_said(), message="the failure said last")
        time.sleep(0.5)
        self.assertIn("did not finish", self.last_said(), "no later announcement drowns it")
        self.check_page("my-books-download-failed")
        # A return is said in the library's words, and stays said.
        self.find("[data-action=return]").click()
        self.wait_for_text("Returned “The Open Road”.")
        self.wait_for(lambda d: "Returned “The Open Road”." in self.last_said(), message="the return said last")
        time.sleep(0.5)
        self.assertIn("Returned “The Open Road”.", self.last_said())
        self.assertIn("Nothing on loan", self.text("main"))

    def test_reservations_show_why_a_borrow_failed(self):
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out"})
        self.library.control("hold-ready", id="urn:fake:ebook-out")
        self.api("POST", "/api/sync")
        self.library.control("fault", route="borrow", kind="garbage", acts="0")
        self.go("#/reservations")
        self.find("[data-action=borrow]").click()
        # The library lent nothing: the page says so, and not that no copy is free (one is waiting for the patron)
        # nor to reserve what is already reserved.
        self.wait_for(lambda d: d.find_elements(By.ID, "action-result"), message="the outcome on the page")
        said = self.text("#action-result")
        self.assertIn("Nothing was borrowed", said)
        self.assertIn("Your hold is kept", said)
        self.assertNotIn("reserve it", said)
        self.assertNotIn("No copy", said)
        # The announcer is emptied, then given the sentence 50 ms later (so a screen reader hears it again).
        self.wait_for(lambda d: self.last_said() == said, message="the outcome said, as shown")
        self.assertIn("Ready to borrow", self.text("main"), "the hold is still there")
        self.check_page("reservations-borrow-not-lent")

    def test_a_refusal_reads_as_sentences(self):
        # The host's words (a command line's "shelf: the library's answer ...: nothing was borrowed") and its hint are
        # two sentences on the page, not "nothing was borrowed Try again later."
        self.library.control("fault", route="borrow", kind="garbage", acts="0")
        self.details("urn:fake:ebook-more")
        self.find("[data-action=borrow]").click()
        self.wait_for(lambda d: d.find_element(By.ID, "action-result").is_displayed(), message="the outcome")
        said = self.text("#action-result")
        self.assertTrue(said.startswith("The library's answer about “Northern Lights Atlas” could not be read"), said)
        self.assertIn("nothing was borrowed. Try again later.", said)
        self.wait_for(lambda d: self.last_said() == said, message="the outcome said, as shown")

    def test_details_say_when_the_library_did_not_answer(self):
        # The title's own entry is answered with a maintenance page: the details are what shelf saw before, and say so,
        # not availability that reads as the library's word now.
        self.library.control("fault", route="entry", kind="garbage")
        self.details("urn:fake:ebook-free")
        self.assertEqual(self.text("#availability-note"),
                         "The library did not answer just now: this is what shelf saw of this title before.")
        self.assertIn("2 of 3 copies available", self.text(".details dl"))
        self.check_page("details-library-not-answering")
        self.library.control("clear-faults")
        self.details("urn:fake:ebook-free")
        self.assertEqual(self.driver.find_elements(By.ID, "availability-note"), [])

    def test_a_get_the_library_refuses_for_sign_in_leads_to_signing_in(self):
        self.api("POST", "/api/accounts/fake/sign-out")
        self.details("urn:fake:ebook-free")
        self.find("[data-action=borrow]").click()
        self.wait_for(lambda d: d.find_element(By.ID, "action-result").is_displayed(), message="the outcome")
        self.assertIn("The library asks you to sign in.", self.text("#action-result"))
        self.find("#action-result a").click()
        self.wait_for(lambda d: d.current_url.endswith("#/accounts"))
        self.wait_for_text("Library card number")

    def test_a_lost_connection_leaves_the_button_waiting(self):
        self.details("urn:fake:ebook-free")
        self.driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
        try:
            self.find("[data-action=borrow]").click()
            self.wait_for(lambda d: "Waiting for connection" in d.find_element(By.CSS_SELECTOR, "[data-action=borrow]").text)
            button = self.find("[data-action=borrow]")
            self.assertEqual(button.get_attribute("aria-disabled"), "true")
            self.assertNotIn("fail", self.text("main").lower())
            self.check_page("details-waiting-for-connection")
        finally:
            self.driver.delete_network_conditions()
        # Back online, the borrow goes through by itself.
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=return]"), timeout=30)
