"""A hold on a physical copy at a branch that came in is picked up at the branch (seed 003: "the physical title copy is
available for pick-up"): the title's details and Reservations say where it waits and offer no Get, which would borrow
the e-book instead of the copy held. What a title offers is the host's (TitleOffer), drawn from `actions`. Before, the
details offered Get and Cancel hold and said "Ready to borrow", and Reservations offered Get on the branch's row."""

from selenium.webdriver.common.by import By

from rig import BrowserTestCase

TITLE = "urn:fake:ebook-out"  # Waiting Game, an eBook with no free copy and two branches


class ReadyBranchHoldTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()
        # The library lists a branch's hold in the title's queue (the fake library's default), and it comes in.
        self.api("POST", "/api/book/reserve", {"id": TITLE, "branch": "Central Library"})
        self.library.control("hold-ready", id=TITLE)
        self.api("POST", "/api/sync")

    def offered(self):
        return [b.get_attribute("data-action") for b in self.driver.find_elements(By.CSS_SELECTOR, ".actions [data-action]")]

    def test_the_details_say_where_to_pick_it_up_and_offer_no_get(self):
        self.go(f"#/book?id={TITLE}")
        self.wait_for_text("ready for pick-up at Central Library", "#availability")
        self.assertNotIn("borrow", self.text("#availability"))
        self.assertEqual(self.offered(), ["cancel-hold"])
        # The branch held is not offered again (failed before: "Reserve at Central Library" stayed); the other is.
        reserve = [b.text for b in self.driver.find_elements(By.CSS_SELECTOR, ".branches button")]
        self.assertEqual(reserve, ["Reserve at Eastside Branch"])
        self.assertIn("On hold for you", self.text(".branches"))
        self.check_page("details-branch-hold-ready")
        self.find("[data-action=cancel-hold]").click()
        self.wait_for_text("Cancelled the hold on “Waiting Game”.")
        self.assertEqual(self.api("GET", "/api/holds")["items"], [])
        self.assertFalse(self.api("GET", "/api/loans")["items"], "nothing was borrowed")

    def test_reservations_say_where_to_pick_it_up_and_offer_no_get(self):
        self.go("#/reservations")
        self.wait_for_text("Ready for pick-up at Central Library")
        self.assertIn("Physical copy at Central Library", self.text("main"))
        self.assertEqual(self.offered(), ["cancel-hold"])
        self.check_page("reservations-branch-hold-ready")
