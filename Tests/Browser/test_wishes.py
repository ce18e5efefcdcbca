"""The wish list from a title's details (issue 33, item 5): add a wish there, see it on Reading lists with its
availability, and remove it from either page (a route the API lacked)."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from rig import BrowserTestCase


class WishFromDetailsTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()

    def test_add_on_the_details_then_remove_on_reading_lists(self):
        self.go("#/book?id=urn:fake:ebook-out")
        self.tab_to_text("Add to wish list")
        self.press(Keys.ENTER)
        self.wait_for_text("Added “Waiting Game” to your wish list.", "#wish-result")
        self.announced("Added “Waiting Game” to your wish list.")
        self.assertEqual(self.focused().text, "Remove from wish list", "focus stays on the button, now Remove")
        self.check_page("details-wished")
        # Seen as wished when the page is opened again.
        self.go("#/book?id=urn:fake:ebook-out")
        self.assertEqual(self.text("#wish-toggle"), "Remove from wish list")
        self.go("#/lists")
        rows = self.text("main ul.rows")
        self.assertIn("Waiting Game", rows)
        self.assertIn("at Fake Public Library", rows, "with its availability at the library")
        self.find("[data-remove-wish]").click()
        self.wait_for_text("Removed “Waiting Game” from your wish list.", "#action-result")
        self.assertIn("Your wish list is empty.", self.text("main"))
        self.assertEqual(self.focused().get_attribute("id"), "action-result")
        self.check_page("wish-list-removed")
        self.assertEqual(self.api("GET", "/api/wishlist")["wishes"], [])

    def test_remove_on_the_details_page_and_a_wish_that_is_not_there(self):
        self.go("#/book?id=urn:fake:ebook-free")
        self.find("#wish-toggle").click()
        self.wait_for(lambda d: d.find_element(By.ID, "wish-toggle").text == "Remove from wish list")
        wish = self.api("GET", "/api/wishlist")["wishes"][0]
        self.find("#wish-toggle").click()
        self.wait_for_text("Removed “The Open Road” from your wish list.", "#wish-result")
        self.assertEqual(self.text("#wish-toggle"), "Add to wish list")
        gone = self.api("DELETE", f"/api/wishlist/{wish['id']}")
        self.assertIn("There is no wish", gone["title"])
