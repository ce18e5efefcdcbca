"""Notices from every face (issue 33, item 6): a notification `shelf watch` makes in another process reaches an
open page of `shelf serve` within 5 seconds: said by the live region, counted on the badges."""

import time

from selenium.webdriver.common.by import By

from rig import BrowserTestCase

DAY = 86400
HOLD_READY = "Waiting Game is ready to be checked out. You have 3 days to complete checkout of this item."
LOAN_WEEK = "The Open Road has one week left before it will be returned."
LOAN_DAY = "Sound of Rivers has one day left before it must be returned."


class NoticesFromEveryFaceTests(BrowserTestCase):
    def test_notifications_made_by_shelf_watch_reach_the_open_page(self):
        self.add_library_and_sign_in()
        self.api("POST", "/api/book/reserve", {"id": "urn:fake:ebook-out"})
        for entry in ["urn:fake:ebook-free", "urn:fake:audio-free"]:
            self.api("POST", "/api/book/borrow", {"id": entry})
        self.api("POST", "/api/sync")
        self.go("#/catalog")
        self.assertFalse(self.find("#unread-badge").is_displayed())
        # The library's news, which only `shelf watch` (another process) hears of.
        self.library.control("hold-ready", id="urn:fake:ebook-out")
        self.library.control("hold-end", id="urn:fake:ebook-out", **{"in": 3 * DAY - 3600})
        self.library.control("loan-end", id="urn:fake:ebook-free", **{"in": 7 * DAY - 3600})
        self.library.control("loan-end", id="urn:fake:audio-free", **{"in": DAY / 2})
        watch = self.server.shelf("watch", "--once")
        self.assertEqual(watch.returncode, 0, watch.stderr)
        made = time.time()
        for text in [HOLD_READY, LOAN_WEEK, LOAN_DAY]:
            self.announced(text, timeout=max(0.1, made + 5 - time.time()))
        self.wait_for(lambda d: d.find_element(By.ID, "unread-badge").get_attribute("textContent") == "3, 3 unread",
                      timeout=max(0.1, made + 5 - time.time()), message="the unread badge")
        self.wait_for(lambda d: d.find_element(By.ID, "ready-badge").is_displayed(), timeout=max(0.1, made + 5 - time.time()))
        self.check_page("catalog-after-watch")
