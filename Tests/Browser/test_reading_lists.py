"""Reading lists connected from the browser (issue 33, item 5): Connect Google Books runs the command line's sign-in
(the redirect to 127.0.0.1 on the server's own loopback, PKCE, the state checked, the code exchanged by the host)
against the fake Google Books with Chromium following every redirect, and Connect Goodreads its OAuth 1.0a sign-in
with a legacy key; the page then shows the service and its lists, each title with how it stands at the library and
Get or Reserve where that applies; Disconnect. The fakes are the ReadingListTests' own (shelf-fake-reading-lists)."""

import json
import os
import shutil
import subprocess
import unittest
import urllib.request

from selenium.webdriver.common.by import By

from rig import BUILD, ROOT, BrowserTestCase, read_line

SCREENSHOTS = os.path.join(ROOT, "docs", "screenshots")


class FakeReadingLists:
    """shelf-fake-reading-lists: Google Books and Goodreads on loopback, their addresses on its first line."""

    def __init__(self):
        self.process = subprocess.Popen([os.path.join(BUILD, "shelf-fake-reading-lists")], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        card = read_line(self.process, "shelf-fake-reading-lists")
        self.google, self.goodreads = card["google"], card.get("goodreads")

    def google_counts(self):
        return json.loads(urllib.request.urlopen(self.google["counts"], timeout=10).read())

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


class ConnectReadingListsTests(BrowserTestCase):
    def setUp(self):
        super().setUp()
        self.fakes = FakeReadingLists()
        self.addCleanup(self.fakes.stop)
        self.add_library_and_sign_in()

    def fill(self, service, settings, addresses):
        for key, value in settings.items():
            self.find(f"#setting-{service}-{key}").send_keys(value)
        self.find(f"form[data-connect='{service}'] details summary").click()
        for key, value in addresses.items():
            field = self.find(f"#setting-{service}-{key}")
            field.clear()
            field.send_keys(value)

    def row(self, service, title):
        """The text of the row of `title` in the service's lists."""
        for row in self.driver.find_elements(By.CSS_SELECTOR, f"section[data-service='{service}'] li"):
            if title in row.text:
                return row
        self.fail(f"no row for {title} under {service}: {self.text('main')}")

    def test_connect_google_books_signs_in_and_shows_each_title_at_the_library(self):
        self.go("#/lists")
        self.assertIn("Connect Google Books", self.text("section[data-service='google-books']"))
        self.check_page("lists-not-connected")
        google = self.fakes.google
        self.fill("google-books", {"clientId": "test-client.apps.googleusercontent.com"},
                  {"baseURL": google["base"], "authURL": google["authURL"], "tokenURL": google["tokenURL"]})
        self.check_page("lists-connect-form")
        self.find("form[data-connect='google-books'] button[type=submit]").click()
        # Chromium goes to Google's page, which redirects to shelf's listener on 127.0.0.1, which sends it back here.
        self.wait_for(lambda d: d.current_url.startswith(self.server.url + "/#/lists?signin=google-books"),
                      message="back on Reading lists from the sign-in")
        self.wait_for_text("Signed in to Google Books: 4 titles on your lists.", "#action-result")
        self.assertEqual(self.focused().tag_name, "h1", "a page come back to starts at its heading, the outcome next")
        self.announced("Signed in to Google Books")
        self.assertEqual(self.fakes.google_counts()["verifiedPKCE"], 1, "the code was exchanged with its PKCE verifier")
        # The tokens are kept with the connector's secrets (the credentials store), as the command line keeps them.
        with open(os.path.join(self.server.home, "config", "credentials.json")) as credentials:
            self.assertIn("refresh_token", credentials.read())

        section = self.text("section[data-service='google-books']")
        self.assertIn("Connected", section)
        waiting = self.row("google-books", "Waiting Game")
        self.assertIn("All copies out, 2 waiting at Fake Public Library", waiting.text)
        self.assertEqual([b.get_attribute("textContent") for b in waiting.find_elements(By.CSS_SELECTOR, "button")], ["Reserve “Waiting Game”"])
        free = self.row("google-books", "The Open Road")
        self.assertIn("Available now at Fake Public Library", free.text)
        self.assertIn("Not in your library's catalog yet", self.row("google-books", "A Book No Library Has").text)
        self.assertEqual(self.row("google-books", "A Book No Library Has").find_elements(By.CSS_SELECTOR, "button"), [])
        self.assertIn("Available now at Fake Public Library", self.row("google-books", "Northern Lights Atlas").text)
        # The to-read shelf joined the wish list, each wish with its standing too.
        wishes = self.text("ul[aria-labelledby='wish-heading']")
        self.assertIn("All copies out, 2 waiting at Fake Public Library", wishes)
        # The screenshot shows the service's lists, each title with its standing at the library.
        self.driver.execute_script("document.getElementById('services-heading').scrollIntoView()")
        self.check_page("lists-connected")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        shutil.copy(os.path.join(ROOT, ".build", "browser-artifacts", "lists-connected.png"),
                    os.path.join(SCREENSHOTS, "reading-lists-availability.png"))

        # Get from the list: the title is lent, and the row says so.
        free.find_element(By.CSS_SELECTOR, "button").click()
        self.wait_for_text("The Open Road", "#action-result")
        self.wait_for(lambda d: "On loan to you at Fake Public Library" in self.row("google-books", "The Open Road").text,
                      message="the row says it is on loan")
        self.check_page("lists-after-get")

        self.find("[data-disconnect='google-books']").click()
        self.wait_for_text("Disconnected Google Books: its lists are no longer shown.", "#action-result")
        self.assertIn("Connect Google Books", self.text("section[data-service='google-books']"))
        self.assertNotIn("A Book No Library Has", self.text("section[data-service='google-books']"))
        self.check_page("lists-disconnected")
        # Disconnect lets go of the account: no token of the service is kept (failed before: the refresh token stayed).
        with open(os.path.join(self.server.home, "config", "credentials.json")) as credentials:
            self.assertNotIn("googlebooks", credentials.read())

    def test_connect_goodreads_signs_in_with_a_legacy_key(self):
        goodreads = self.fakes.goodreads
        if not goodreads:
            raise unittest.SkipTest("../shared/corpus is absent: the fake Goodreads answers with its XML files")
        self.go("#/lists")
        self.fill("goodreads", {"apiKey": goodreads["consumerKey"], "apiSecret": goodreads["consumerSecret"]},
                  {"baseURL": goodreads["base"]})
        self.find("form[data-connect='goodreads'] button[type=submit]").click()
        self.wait_for(lambda d: d.current_url.startswith(self.server.url + "/#/lists?signin=goodreads"),
                      message="back on Reading lists from the sign-in")
        self.wait_for_text("Signed in to Goodreads: 22 titles on your lists.", "#action-result")
        self.assertIn("Connected", self.text("section[data-service='goodreads']"))
        self.assertIn("Not in your library's catalog yet", self.text("section[data-service='goodreads']"))
        self.check_page("lists-goodreads-connected")
        # No secret comes back to the page.
        self.assertNotIn(goodreads["consumerSecret"], self.driver.page_source)

    def test_a_connect_that_cannot_read_the_lists_says_why(self):
        # A public shelf without its API key: connected, but the lists cannot be read; said beside the service.
        self.go("#/lists")
        self.fill("google-books", {"userId": "1234567890"}, {"baseURL": self.fakes.google["base"]})
        self.find("form[data-connect='google-books'] button[type=submit]").click()
        self.wait_for_text("Connected Google Books, but its lists could not be read", "#action-result")
        self.assertIn("error", self.find("#action-result").get_attribute("class"))
        self.check_page("lists-not-read")

    def test_connect_goodreads_with_an_export_chosen_in_the_form(self):
        # The durable path (Goodreads issues no new API keys): the export file, chosen in the form as a patron would.
        export = os.path.join(self.server.home, "goodreads_library_export.csv")
        header = ("Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,"
                  "Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,"
                  "Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies\n")
        with open(export, "w") as csv:
            csv.write(header
                      + "1,Waiting Game,Ben Moss,\"Moss, Ben\",,,,0,4.0,P,Paperback,200,2020,2020,,2026/01/02,to-read,"
                        "to-read (#1),to-read,,,,0,0\n"
                      + "2,Sound of Rivers,Cleo Hart,\"Hart, Cleo\",,,,4,4.1,P,Paperback,300,2021,2021,2025/12/01,"
                        "2025/11/02,,,read,,,,1,0\n")
        self.go("#/lists")
        self.find("#setting-goodreads-file").send_keys(export)
        self.find("form[data-connect='goodreads'] button[type=submit]").click()
        self.wait_for_text("Connected Goodreads: 2 titles on your lists.", "#action-result")
        self.assertIn("All copies out, 2 waiting at Fake Public Library", self.row("goodreads", "Waiting Game").text)
        self.assertIn("Available now at Fake Public Library", self.row("goodreads", "Sound of Rivers").text)
        self.check_page("lists-goodreads-export")
        # Kept in shelf's data folder (readable by the patron only), as the setting names it.
        kept = [os.path.join(folder, name) for folder, _, names in os.walk(self.server.home) for name in names
                if folder.endswith("reading-lists") and name == "goodreads-file"]
        self.assertEqual(len(kept), 1, kept)
        self.assertEqual(os.stat(kept[0]).st_mode & 0o777, 0o600)
        self.assertIn("Waiting Game", open(kept[0]).read())
        # Disconnect forgets the copy of the export, a reading history (failed before: it stayed in reading-lists/).
        self.find("[data-disconnect='goodreads']").click()
        self.wait_for_text("Disconnected Goodreads", "#action-result")
        self.assertFalse(os.path.exists(kept[0]), kept[0])

    def test_a_declined_sign_in_says_so_and_the_form_is_there_again(self):
        urllib.request.urlopen(urllib.request.Request(self.fakes.google["decline"], method="POST"), timeout=10).read()
        self.go("#/lists")
        google = self.fakes.google
        self.fill("google-books", {"clientId": "test-client.apps.googleusercontent.com"},
                  {"baseURL": google["base"], "authURL": google["authURL"], "tokenURL": google["tokenURL"]})
        self.find("form[data-connect='google-books'] button[type=submit]").click()
        self.wait_for(lambda d: d.current_url.startswith(self.server.url + "/#/lists?signin=google-books"),
                      message="back on Reading lists from the declined sign-in")
        self.wait_for_text("The sign-in at Google Books did not complete", "#action-result")
        self.assertIn("access_denied", self.text("#action-result"))
        self.assertIn("Connect again to sign in.", self.text("#action-result"))
        self.assertIn("error", self.find("#action-result").get_attribute("class"))
        # Not left half-connected: the form is there to try again, and no service is listed as connected.
        section = self.text("section[data-service='google-books']")
        self.assertNotIn("Connected", section)
        self.assertIn("Connect Google Books", section)
        self.assertEqual(self.fakes.google_counts()["issued"], 0, "no token was issued")
        self.check_page("lists-sign-in-declined")
