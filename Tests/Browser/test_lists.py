"""Reading lists and the wish list (requirements 002/003: a wish list that tells when a title is available): adding
a wish is seen and said, and a refusal is shown beside the form."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from rig import BrowserTestCase


class WishListTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()
        self.go("#/lists")

    def last_said(self):
        return self.driver.find_element(By.ID, "announcer").get_attribute("textContent")

    def test_adding_a_wish_is_shown_and_said_last(self):
        self.find("#wish-title").send_keys("Quiet Harbour")
        self.find("#wish-author").send_keys("Ines Vale", Keys.ENTER)
        self.wait_for(lambda d: d.find_elements(By.ID, "action-result"), message="the outcome on the page")
        self.assertIn("Added “Quiet Harbour” to your wish list.", self.text("#action-result"))
        self.wait_for(lambda d: "Added “Quiet Harbour”" in self.last_said(), message="the outcome said")
        time.sleep(0.5)
        self.assertIn("Added “Quiet Harbour”", self.last_said(), "the count does not drown it")
        self.assertIn("Quiet Harbour", self.text("main ul.rows"))
        self.assertEqual(self.focused().get_attribute("id"), "wish-title", "ready for the next wish")
        self.check_page("wish-list-added")

    def test_a_wish_names_the_library_as_the_app_does(self):
        self.find("#wish-title").send_keys("Sound of Rivers", Keys.ENTER)
        self.wait_for(lambda d: d.find_elements(By.ID, "action-result"), message="the outcome on the page")
        words = self.text("main ul.rows")
        self.assertIn("at Fake Public Library", words)
        # Not the account's short name, nor an id no patron reads.
        self.assertNotIn("at fake", words)
        self.assertNotIn("urn:", words)
        self.assertNotIn("ID ", self.text("#action-result"))
        self.assertNotIn("urn:", self.text("#action-result"))

    def test_a_refused_wish_is_shown_beside_the_form(self):
        # Spaces only pass the field's `required`: the page says what to type, not the API's "missing from the request".
        self.find("#wish-title").send_keys("   ", Keys.ENTER)
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "main form .error"), message="the refusal on the page")
        self.assertEqual(self.text("main form .error"), "Type a title or an ISBN to wish for.")
        self.wait_for(lambda d: self.last_said() == self.text("main form .error"), message="the refusal said, as shown")
        self.check_page("wish-list-refused")
