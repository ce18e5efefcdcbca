"""Accounts: add a library by its address, sign in with card and PIN, sign out, choose the current library."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from rig import BrowserTestCase


class AccountTests(BrowserTestCase):
    def test_add_sign_in_and_out_with_the_mouse(self):
        self.go("#/accounts")
        self.check_page("accounts-empty")
        self.find("#library-url").send_keys(self.library.root)
        self.driver.find_element(By.XPATH, "//button[text()='Add library']").click()
        self.announced("Added Fake Public Library")
        self.assertIn("Not signed in", self.text("main"))
        self.find("input[id^=barcode-]").send_keys(self.library.username)
        self.find("input[id^=pin-]").send_keys("wrong")
        self.driver.find_element(By.XPATH, "//button[text()='Sign in']").click()
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[role=alert]"))
        self.check_page("accounts-sign-in-refused")
        self.find("input[id^=pin-]").clear()
        self.find("input[id^=pin-]").send_keys(self.library.password)
        self.driver.find_element(By.XPATH, "//button[text()='Sign in']").click()
        self.announced("Signed in to Fake Public Library")
        self.assertIn("Signed in", self.text("main"))
        self.check_page("accounts-signed-in")
        self.driver.find_element(By.XPATH, "//button[text()='Sign out']").click()
        self.announced("Signed out")

    def test_add_and_sign_in_with_the_keyboard(self):
        self.go("#/accounts")
        self.tab_to(lambda e: e.get_attribute("id") == "library-url")
        self.press(self.library.root, Keys.ENTER)
        self.announced("Added Fake Public Library")
        self.tab_to(lambda e: (e.get_attribute("id") or "").startswith("barcode-"))
        self.press(self.library.username, Keys.TAB, self.library.password, Keys.ENTER)
        self.announced("Signed in to Fake Public Library")
        accounts = self.api("GET", "/api/accounts")
        self.assertTrue(accounts["items"][0]["signedIn"])

    def test_a_second_library_can_be_chosen(self):
        self.add_library_and_sign_in()
        self.api("POST", "/api/accounts", {"url": "file://" + __import__("rig").ROOT + "/samples/library", "name": "samples"})
        self.go("#/accounts")
        self.driver.find_element(By.XPATH, "//button[text()='Use this library']").click()
        self.announced("is now the current library")
        current = [a for a in self.api("GET", "/api/accounts")["items"] if a["isDefault"]]
        self.assertEqual(len(current), 1)
