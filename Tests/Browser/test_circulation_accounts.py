"""Every circulation button acts at the library of the entry it is on. A title's id is its library's own, so two
libraries (here two fake libraries with the same catalog) may hold the same one: Get and Cancel hold in Reservations,
Return in My Books and Reserve on a title's details send their row's or page's account. Before, the buttons sent the
title's id alone: the server then acted at the library in use (Get borrowed there) or, with the title held or lent at
both, refused ("on hold at 2 libraries")."""

from selenium.webdriver.common.by import By

from rig import BrowserTestCase, Library


class TwoLibrariesTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()  # "fake", the library in use
        self.other = Library()
        self.addCleanup(self.other.stop)
        self.api("POST", "/api/accounts", {"url": self.other.root, "name": "other"})
        self.api("POST", "/api/accounts/other/sign-in", {"barcode": self.other.username, "pin": self.other.password})
        self.api("POST", "/api/accounts/fake/use")
        for account in ["fake", "other"]:
            self.api("GET", f"/api/catalog?format=all&account={account}")

    def row(self, account, entry_id):
        """The row of `entry_id` at `account` (Reservations' and My Books' rows are keyed "ACCOUNT ID …")."""
        return self.find(f'[data-key^="{account} {entry_id}"]')

    def held_at(self):
        return sorted((hold["account"], hold["entry"]["id"]) for hold in self.api("GET", "/api/holds")["items"])

    def test_cancel_hold_acts_at_the_rows_library(self):
        for account in ["fake", "other"]:
            self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out", "account": account})
        self.go("#/reservations")
        self.row("other", "urn:fake:ebook-out").find_element(By.CSS_SELECTOR, "[data-action=cancel-hold]").click()
        self.wait_for_text("Cancelled the hold on “Waiting Game”.")
        self.assertEqual(self.held_at(), [("fake", "urn:fake:ebook-out")])

    def test_get_on_a_ready_hold_borrows_at_the_rows_library(self):
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:audio-out", "account": "other"})
        self.other.control("hold-ready", id="urn:fake:audio-out")
        self.api("POST", "/api/sync")
        self.go("#/reservations")
        self.row("other", "urn:fake:audio-out").find_element(By.CSS_SELECTOR, "[data-action=borrow]").click()
        self.wait_for_text("Borrowed “Quiet Harbour”")
        loans = self.api("GET", "/api/loans")["items"]
        self.assertEqual([(loan["account"], loan["entry"]["id"]) for loan in loans], [("other", "urn:fake:audio-out")])
        self.check_page("reservations-two-libraries-after-get")

    def test_return_acts_at_the_rows_library(self):
        for account in ["fake", "other"]:
            self.api("POST", "/api/book/borrow", {"id": "urn:fake:ebook-free", "account": account})
        self.go("#/my-books")
        self.row("other", "urn:fake:ebook-free").find_element(By.CSS_SELECTOR, "[data-action=return]").click()
        self.find("dialog.confirm[open]")
        self.find("dialog.confirm [data-answer=yes]").click()
        self.wait_for_text("Returned “The Open Road”.")
        loans = self.api("GET", "/api/loans")["items"]
        self.assertEqual([(loan["account"], loan["entry"]["id"]) for loan in loans], [("fake", "urn:fake:ebook-free")])

    def test_reserve_on_the_details_of_a_title_at_another_library(self):
        self.go("#/book?id=urn:fake:ebook-out&account=other")
        self.find("[data-action=reserve]").click()
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=cancel-hold]"))
        self.assertEqual(self.held_at(), [("other", "urn:fake:ebook-out")])
