"""The notification requirements: the exact texts, where each leads, and the badge on Reservations."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from rig import BrowserTestCase

DAY = 86400
HOLD_READY = "Waiting Game is ready to be checked out. You have 3 days to complete checkout of this item."
LOAN_WEEK = "The Open Road has one week left before it will be returned."
LOAN_DAY = "Sound of Rivers has one day left before it must be returned."
RETURNED = "Northern Lights Atlas has been returned."


class NotificationTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.add_library_and_sign_in()
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out"})
        self.library.control("hold-ready", id="urn:fake:ebook-out")
        self.library.control("hold-end", id="urn:fake:ebook-out", **{"in": 3 * DAY - 3600})
        for entry, seconds in [("urn:fake:ebook-free", 7 * DAY - 3600), ("urn:fake:audio-free", DAY / 2), ("urn:fake:ebook-more", 2)]:
            self.api("POST", "/api/book/borrow", {"id": entry})
            self.library.control("loan-end", id=entry, **{"in": seconds})
        self.api("POST", "/api/sync")  # the loans as they are now: the returned one is seen leaving at the next sync
        time.sleep(2.5)
        self.go("#/catalog")
        self.api("POST", "/api/sync")

    def test_texts_badge_and_targets_with_the_mouse(self):
        # The sync's new notifications are said politely as they come; the badge counts holds ready to borrow.
        self.wait_for(lambda d: d.find_element(By.ID, "ready-badge").is_displayed())
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "[data-page=reservations]").get_attribute("textContent"),
                         "Reservations1, 1 ready to borrow")
        self.go("#/notifications")
        page = self.text("main")
        for text in [HOLD_READY, LOAN_WEEK, LOAN_DAY, RETURNED]:
            self.assertIn(text, page)
        self.check_page("notifications")
        self.driver.find_element(By.LINK_TEXT, HOLD_READY).click()
        self.wait_for(lambda d: d.current_url.endswith("#/reservations"))
        self.wait_for_text("Ready to borrow")
        self.check_page("reservations-ready")
        # Borrowing the ready hold clears the badge.
        self.find("[data-action=borrow]").click()
        self.wait_for(lambda d: not d.find_element(By.ID, "ready-badge").is_displayed())
        self.go("#/notifications")
        self.driver.find_element(By.LINK_TEXT, LOAN_WEEK).click()
        self.wait_for(lambda d: d.current_url.endswith("#/my-books"))
        self.go("#/notifications")
        self.driver.find_element(By.LINK_TEXT, RETURNED).click()
        self.wait_for(lambda d: d.current_url.endswith("#/my-books"))

    def test_targets_with_the_keyboard(self):
        self.go("#/notifications")
        self.tab_to(lambda e: e.text == LOAN_DAY)
        self.press(Keys.ENTER)
        self.wait_for(lambda d: d.current_url.endswith("#/my-books"))
        self.wait_for(lambda d: d.switch_to.active_element.text == "My Books", message="focus on the new page's heading")
        self.go("#/notifications")
        self.tab_to(lambda e: e.text == HOLD_READY)
        self.press(Keys.ENTER)
        self.wait_for(lambda d: d.current_url.endswith("#/reservations"))
        # The title's details are one link further.
        self.go("#/notifications")
        self.tab_to(lambda e: e.text == "Details of “Waiting Game”")
        self.press(Keys.ENTER)
        self.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "main h1").text == "Waiting Game")
