"""In the browser: no key, no library; a page of another origin cannot use the API."""

from selenium.webdriver.common.by import By

from rig import BrowserTestCase


class SecurityTests(BrowserTestCase):
    def test_a_browser_without_the_key_is_not_let_in(self):
        self.driver.delete_all_cookies()
        self.go("#/catalog")
        self.wait_for_text("has not been let in")
        self.check_page("not-let-in")

    def test_another_origin_cannot_call_the_api(self):
        # localhost is another origin than 127.0.0.1 for the browser: its fetch carries that Origin and no cookie.
        self.driver.get(self.server.url.replace("127.0.0.1", "localhost") + "/login.html")
        status = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(arguments[0] + "/api/status", {credentials: "include"}).then(r => done(r.status), e => done("blocked"));
        """, self.server.url)
        self.assertIn(status, (401, 403, "blocked"))

    def test_a_page_cannot_load_anything_from_another_origin(self):
        self.go("#/catalog")
        loaded = self.driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        self.assertTrue(loaded)
        self.assertTrue(all(url.startswith(self.server.url) for url in loaded), loaded)
