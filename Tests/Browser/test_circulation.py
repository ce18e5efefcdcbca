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
        self.confirm()
        self.wait_for_text("Nothing on loan")
        self.assertFalse(self.library_on_loan("urn:fake:audio-free"))

    def confirm(self, answer="yes"):
        """Answers the question Return asks (a modal dialog)."""
        self.find("dialog.confirm[open]")
        self.find(f"dialog.confirm [data-answer={answer}]").click()

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

    def test_get_with_the_keyboard_then_read(self):
        self.details("urn:fake:ebook-free")
        self.tab_to_text("Get")
        self.press(Keys.ENTER)
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=read]"))
        self.assertEqual(self.focused().get_attribute("data-action"), "read")
        self.press(Keys.ENTER)
        # (What the live region said goes with the page: the reader is a page of its own.)
        self.wait_for(lambda d: "/reader.html?" in d.current_url, timeout=60, message="the reader opens")

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
        self.confirm()
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
        # The host's note, as `shelf book` says it, with how long ago shelf saw it.
        self.assertTrue(self.text("#availability-note").startswith(
            "The library did not answer just now: this is what shelf saw of this title before"), self.text("#availability-note"))
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


class OneEntryPerLoanTests(BrowserTestCase):
    """Issue 33, item 4: a loan is one entry in My Books with Return and Read or Listen together; Return asks first;
    focus stays on something sensible after Return, Cancel hold and Get."""

    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()

    def download(self, entry_id):
        self.api("POST", "/api/book/borrow", {"id": entry_id})
        self.api("POST", "/api/book/download", {"id": entry_id})
        self.wait_for(lambda d: any(loan.get("downloaded") for loan in self.api("GET", "/api/loans")["items"]
                                    if loan["entry"]["id"] == entry_id), timeout=60, message="the download")

    def test_a_downloaded_loan_is_one_entry_with_read_and_return(self):
        self.download("urn:fake:ebook-free")
        self.go("#/my-books")
        titles = [t.text for t in self.driver.find_elements(By.CSS_SELECTOR, "main h3")]
        self.assertEqual(titles.count("The Open Road"), 1, f"listed once, not under two headings: {titles}")
        row = self.find("[data-loan='urn:fake:ebook-free']")
        self.assertEqual([b.get_attribute("data-action") for b in row.find_elements(By.CSS_SELECTOR, "button")], ["return"])
        read = row.find_element(By.CSS_SELECTOR, "a.button")
        self.assertTrue(read.text.startswith("Read"))
        self.assertIn("reader.html", read.get_attribute("href"))
        self.check_page("my-books-one-entry")

    def test_return_asks_first_and_focus_lands_on_what_it_did(self):
        self.api("POST", "/api/book/borrow", {"id": "urn:fake:ebook-free"})
        self.go("#/my-books")
        self.wait_for_text("Checked with your library at", "#library-check")
        self.tab_to(lambda e: e.get_attribute("data-action") == "return")
        self.press(Keys.ENTER)
        dialog = self.find("dialog.confirm[open]")
        self.assertIn("Return “The Open Road” to the library now?", dialog.text)
        self.assertEqual(self.focused().get_attribute("data-answer"), "no", "the safe answer first")
        self.check_page("my-books-return-question")
        # Keeping it changes nothing, and focus goes back to the button that asked.
        self.press(Keys.ENTER)
        self.wait_for(lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.confirm[open]"))
        self.assertEqual(self.focused().get_attribute("data-action"), "return")
        self.assertTrue(self.on_loan("urn:fake:ebook-free"), "Keep it kept the loan")
        self.press(Keys.ENTER)
        self.find("dialog.confirm[open]")
        self.press(Keys.SHIFT + Keys.TAB)
        self.assertEqual(self.focused().get_attribute("data-answer"), "yes")
        self.press(Keys.ENTER)
        self.wait_for_text("Returned “The Open Road”.")
        self.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "action-result",
                      message="focus on what Return did, not the page body")
        self.assertFalse(self.on_loan("urn:fake:ebook-free"))

    def on_loan(self, entry_id):
        return any(loan["entry"]["id"] == entry_id for loan in self.api("GET", "/api/loans")["items"])

    def test_focus_after_get_and_cancel_hold_in_reservations(self):
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out"})
        self.library.control("hold-ready", id="urn:fake:ebook-out")
        self.api("POST", "/api/sync")
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:audio-out"})
        self.api("POST", "/api/sync")
        self.go("#/reservations")
        self.find("[data-action=borrow]").click()
        self.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "action-result",
                      message="focus on what Get did")
        self.assertIn("Borrowed “Waiting Game”", self.focused().text)
        self.find("[data-action=cancel-hold]").click()
        self.wait_for_text("Cancelled the hold on “Quiet Harbour”.")
        self.wait_for(lambda d: d.switch_to.active_element.get_attribute("id") == "action-result",
                      message="focus on what Cancel hold did")
        self.check_page("reservations-after-cancel")

    def test_a_branch_hold_the_library_does_not_list_is_a_physical_copy_with_no_cancel(self):
        """Issue 32, item 7: its own entry, "Physical copy at B", kept by shelf, and no Cancel hold button."""
        self.library.control("unlist-branch-holds", id="-")
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out", "branch": "Central Library"})
        self.api("POST", "/api/sync")
        self.go("#/reservations")
        self.wait_for_text("Physical copy at Central Library")
        main = self.text("main")
        self.assertIn("kept by shelf: your library's list does not show it", main)
        self.assertNotIn("eBook", main)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "[data-action=cancel-hold]"), [])

    def test_cancel_on_the_branch_row_cancels_the_branch_hold(self):
        """Issue 33: with an e-book hold and a branch hold of one title, Cancel hold on the branch's row cancels that
        hold and the e-book hold stays. Before, the row's Cancel sent only the title and the e-book hold went."""
        self.library.control("revocable-branch-holds", id="-")
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out", "branch": "Central Library"})
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out"})
        self.go("#/reservations")
        self.wait_for_text("Physical copy at Central Library")
        branch_row = self.driver.find_element(By.CSS_SELECTOR, '[data-key$=" Central Library"]')
        branch_row.find_element(By.CSS_SELECTOR, "[data-action=cancel-hold]").click()
        self.wait_for_text("Cancelled the hold on")
        self.wait_for(lambda d: "Physical copy at Central Library" not in self.text("main"),
                      message="the branch's row stays")
        holds = self.api("GET", "/api/holds")["items"]
        self.assertEqual([hold.get("branch") for hold in holds], [None], holds)
        self.assertIn("eBook", self.text("main"))


class CurrentLoansAndHoldsTests(BrowserTestCase):
    """Issue 33, item 1: Reservations and My Books ask the library when opened (at most once a minute), with a visible
    Check now; the badge shows the holds ready to borrow as soon as shelf knows, to sight and to screen readers."""

    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()

    def badge_words(self):
        return self.driver.find_element(By.CSS_SELECTOR, "[data-page=reservations]").get_attribute("textContent")

    def test_reservations_and_my_books_ask_the_library_when_opened(self):
        for entry in ["urn:fake:ebook-out", "urn:fake:audio-out"]:
            self.api("POST", "/api/book/reserve", {"id": entry})
        self.api("POST", "/api/book/borrow", {"id": "urn:fake:ebook-free"})
        self.api("POST", "/api/sync")
        self.go("#/reservations")
        self.wait_for_text("Checked with your library at", "#library-check")
        self.assertNotIn("Ready to borrow", self.text("main"))
        # Within the minute of that sync, opening the page shows what shelf knows without asking again.
        self.assertFalse(self.api("POST", "/api/library/check", {})["asked"])
        # The library lets a hold in and ends a loan; the next periodic sync is minutes away. Once the minute is
        # over, opening My Books asks the library, and Reservations shows the same answer.
        self.library.control("hold-ready", id="urn:fake:ebook-out")
        self.library.control("expire-loan", id="urn:fake:ebook-free")
        time.sleep(61)
        self.go("#/my-books")
        self.wait_for_text("Nothing on loan", timeout=15)
        self.assertIn("Checked with your library at", self.text("#library-check"))
        self.check_page("my-books-checked")
        self.go("#/reservations")
        self.wait_for_text("Ready to borrow", timeout=5)
        self.wait_for(lambda d: self.badge_words() == "Reservations1, 1 ready to borrow", timeout=5,
                      message="the badge, seen and heard")
        self.assertTrue(self.find("#ready-badge").is_displayed())
        self.check_page("reservations-checked")
        # Check now asks again (past the few seconds that keep a double click from asking twice); a library that
        # does not answer is said, and what shelf knew stays.
        self.library.control("fault", route="loans", kind="garbage")
        time.sleep(5.5)
        self.find("#check-now").click()
        self.wait_for_text("did not answer", "#library-check", timeout=15)
        self.assertEqual(self.focused().get_attribute("id"), "check-now", "focus stays on Check now")
        self.assertIn("Waiting Game", self.text("main"))
        self.check_page("reservations-library-silent")
        self.library.control("clear-faults")
        self.library.control("hold-ready", id="urn:fake:audio-out")
        time.sleep(5.5)
        self.find("#check-now").click()
        self.wait_for_text("2 ready to borrow", "#holds-summary", timeout=15)
        self.wait_for(lambda d: self.badge_words() == "Reservations2, 2 ready to borrow", timeout=5)
        self.assertEqual(self.focused().get_attribute("id"), "check-now")
        self.announced("Checked with your library at")


class HonestProgressTests(BrowserTestCase):
    """Issue 33, item 3: a download's progress says what is known (the bytes, "waiting for the library" when the
    library stops sending), and is announced at most every few seconds, never just before its end."""

    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()

    def test_a_stalled_download_says_it_waits_for_the_library(self):
        self.api("POST", "/api/book/borrow", {"id": "urn:fake:ebook-free"})
        # Half of the book, then silence for 30 s.
        self.library.control("fault", route="fulfil", kind="stalled")
        self.go("#/my-books")
        self.wait_for_text("Checked with your library at", "#library-check")
        # Each announcement with the time it was made.
        self.driver.execute_script("""
            window.__said = [];
            const region = document.getElementById('announcer');
            new MutationObserver(() => { if (region.textContent) window.__said.push([Date.now(), region.textContent]); })
              .observe(region, { childList: true, characterData: true, subtree: true });""")
        self.find("[data-action=download]").click()
        button = lambda d: d.find_element(By.CSS_SELECTOR, "[data-action=download]").text
        self.wait_for(lambda d: "Waiting for the library" in button(d), timeout=20, message="the wait on the button")
        label = button(self.driver)
        self.assertNotIn("%", label, "no percentage while the library keeps the rest")
        self.assertRegex(label, r"\d+(\.\d)? (bytes?|KB|MB)")
        self.announced("waiting for the library")
        self.check_page("my-books-download-waiting")
        # It ends one way or the other (the rest comes, or shelf gives up waiting): said on the page.
        self.wait_for(lambda d: d.find_elements(By.ID, "action-result"), timeout=120, message="the end of the download")
        ended = lambda text: "did not finish" in text or text.startswith("Downloaded")
        self.wait_for(lambda d: any(ended(text) for _, text in d.execute_script("return window.__said")),
                      message="the end said")
        said = self.driver.execute_script("return window.__said")
        progress = [t for t, text in said if text.startswith("Downloading “The Open Road”:")]
        ends = [t for t, text in said if ended(text)]
        self.assertTrue(ends, said)
        for before, after in zip(progress, progress[1:]):
            self.assertGreaterEqual(after - before, 3000, f"progress said at most every few seconds: {said}")
        if progress:
            self.assertGreaterEqual(ends[0] - progress[-1], 1000, f"the end is not said right after a progress: {said}")


class GetThenReadOrListenTests(BrowserTestCase):
    """Issue 33, item 2: after Get, the details page offers Read or Listen (downloading what is needed first), with
    Return beside it, and opens the book; once on this computer, Read or Listen opens it at once."""

    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()

    def test_get_then_read_on_the_details_page(self):
        self.go("#/book?id=urn:fake:ebook-free")
        self.find("[data-action=borrow]").click()
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=read]"), message="Read after Get")
        actions = [b.get_attribute("data-action") for b in self.driver.find_elements(By.CSS_SELECTOR, ".details .actions button")]
        self.assertEqual(actions, ["read", "return"], "Read and Return, no Download")
        self.assertEqual(self.focused().get_attribute("data-action"), "read")
        self.check_page("details-after-get")
        self.find("[data-action=read]").click()
        self.wait_for(lambda d: "/reader.html?" in d.current_url, timeout=60, message="the reader opens")
        self.wait_for(lambda d: d.find_element(By.ID, "title").text != "Opening the book…", message="the book open")
        # Back on the details page, the book is on this computer: Read opens it without a download.
        self.go("#/book?id=urn:fake:ebook-free")
        read = self.find(".details .actions a[data-open=read]")
        self.assertIn("/reader.html?", read.get_attribute("href"))
        self.assertEqual([b.get_attribute("data-action") for b in self.driver.find_elements(By.CSS_SELECTOR, ".details .actions button")], ["return"])
        self.check_page("details-on-this-computer")
