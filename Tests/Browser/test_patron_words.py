"""Small things a patron noticed (issue 33, item 7): a first run invites rather than fails, the sign-up link goes
once signed in, availability says the queue rather than "0 of 0 copies", a language reads as its name, notices
that no longer apply read alike, Share says on the page what it copied, and in-book search says when it stopped
at its limit of hits."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from rig import BrowserTestCase, ROOT
from test_reader import ReaderTestCase

DAY = 86400


class FirstRunTests(BrowserTestCase):
    def test_no_library_yet_is_an_invitation_not_an_error(self):
        self.go("#/catalog")
        invitation = self.find("#invitation")
        self.assertIn("Add your library", invitation.text)
        # Not the red failure it was ("No library account yet." in a .message.error), nor an alert.
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "main .error, main [role=alert]"), [])
        self.assertNotIn("No library account yet", self.text("main"))
        self.check_page("first-run-invitation")
        invitation.find_element(By.LINK_TEXT, "Add your library").click()
        self.wait_for(lambda d: d.current_url.endswith("#/accounts"))
        self.wait_for_text("Library address")


class AccountWordsTests(BrowserTestCase):
    def test_sign_up_is_offered_only_until_signed_in(self):
        self.api("POST", "/api/accounts", {"url": self.library.root, "name": "fake"})
        self.go("#/accounts")
        self.assertIn("Sign up for a library card", self.text("main"))
        self.api("POST", "/api/accounts/fake/sign-in", {"barcode": self.library.username, "pin": self.library.password})
        self.go("#/accounts")
        self.wait_for_text("Signed in")
        self.assertNotIn("Sign up for a library card", self.text("main"))
        self.check_page("accounts-signed-in-no-sign-up")


class DetailsWordsTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()

    def test_a_title_with_no_copies_counted_says_its_queue(self):
        self.library.control("copies", id="urn:fake:ebook-out", n=0)
        self.go("#/book?id=urn:fake:ebook-out")
        availability = self.text("#availability")
        self.assertNotIn("0 of 0", availability)
        self.assertEqual(availability, "no copy available, 2 waiting")
        self.check_page("details-queue-only")

    def test_the_language_reads_as_its_name(self):
        self.api("POST", "/api/accounts", {"url": "file://" + ROOT + "/samples/library", "name": "samples"})
        self.api("GET", "/api/catalog?format=all&account=samples")
        self.go("#/book?id=urn:shelf:sample:harbour-bells&account=samples")
        facts = self.find(".details dl")
        terms = [t.text for t in facts.find_elements(By.TAG_NAME, "dt")]
        values = [d.text for d in facts.find_elements(By.TAG_NAME, "dd")]
        self.assertEqual(values[terms.index("Language")], "English")

    def test_notices_that_no_longer_apply_read_alike(self):
        # A week left, then a day left: the week's notice is superseded by the day's, and reads as a withdrawn one does.
        self.api("POST", "/api/book/borrow", {"id": "urn:fake:ebook-free"})
        self.library.control("loan-end", id="urn:fake:ebook-free", **{"in": 7 * DAY - 3600})
        self.api("POST", "/api/sync")
        self.library.control("loan-end", id="urn:fake:ebook-free", **{"in": DAY / 2})
        self.api("POST", "/api/sync")
        states = [n["state"] for n in self.api("GET", "/api/notifications?all=true")["items"]]
        self.assertIn("superseded", states, "the set-up makes a superseded notice")
        self.go("#/notifications")
        page = self.text("main")
        self.assertNotIn("superseded", page)
        self.assertIn("No longer applies", page)
        self.check_page("notifications-superseded")


class ReaderWordsTests(ReaderTestCase):
    def polite(self):
        return self.driver.find_element(By.ID, "announce").text

    def test_share_says_on_the_page_that_it_copied(self):
        book = self.add_fixture("reflowable")
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": self.server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.open_reader(book)
        self.driver.find_element(By.ID, "share").click()
        self.wait_for(lambda d: d.find_elements(By.ID, "share-note") and d.find_element(By.ID, "share-note").is_displayed(),
                      message="the copy shown on the page")
        self.assertTrue(self.text("#share-note").startswith("Copied to the clipboard: the passage from page"))
        self.check_page("reader-share-copied")

    def test_search_says_when_it_stopped_at_its_limit(self):
        book = self.add_fixture("reflowable")
        self.open_reader(book)
        self.driver.find_element(By.ID, "open-search").click()
        self.find("#search-query").send_keys("the", Keys.ENTER)
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results li"))
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#search-results li")), 100)
        self.assertIn("stops there", self.text("#search-status"))
        self.check_page("reader-search-limit")
