"""In the browser: no key, no library; a page of another origin or another local service cannot use the app's
session. The evidence is the server's (what it refused, on its standard error) and the listener's (what it
received), never what a page says about itself."""

import json
import time
import urllib.error
import urllib.parse
import urllib.request

from rig import BrowserTestCase, Listener


class SecurityTests(BrowserTestCase):
    def test_a_browser_without_the_key_is_not_let_in(self):
        self.driver.execute_script("localStorage.clear()")
        self.go("#/catalog")
        self.wait_for_text("has not been let in")
        # The server's refusal as the host words it, the way in with it (the page wrote its own copy before).
        self.assertIn("Run shelf serve --open in a terminal", self.text("main"))
        self.check_page("not-let-in")

    def test_another_origin_cannot_call_the_api(self):
        # A page of another local service: its storage holds no session, and its requests carry its own Origin.
        # Failed before (item 5 of issue 31): "blocked", which CORS gives whatever the server does, was accepted;
        # now the server must have refused both calls itself.
        listener = Listener()
        self.addCleanup(listener.stop)
        self.driver.get(f"http://localhost:{listener.port}/")
        self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const api = arguments[0];
            Promise.allSettled([
              fetch(api + "/api/status", {credentials: "include"}),
              fetch(api + "/api/sync", {method: "POST", credentials: "include", body: "{}"}),
            ]).then(() => done());
        """, self.server.url)
        self.wait_for(lambda d: len([r for r in self.server.refusals() if f"from http://localhost:{listener.port}" in r]) >= 2,
                      message=f"the server refusing both calls: {self.server.refusals()}")
        refused = " ".join(self.server.refusals())
        self.assertIn("GET /api/status", refused)
        self.assertIn("POST /api/sync", refused)

    def test_another_local_service_receives_no_credential_and_cannot_replay_one(self):
        listener = Listener()
        self.addCleanup(listener.stop)
        # The browser visits another service on loopback under each name it could reach: the app's own name too
        # (another port of shelf.localhost). Failed before: the session cookie for 127.0.0.1 went to every port.
        names = ["127.0.0.1", "localhost", "shelf.localhost"]
        for name in names:
            self.driver.get(f"http://{name}:{listener.port}/")
            self.wait_for(lambda d: len(listener.reports()) >= names.index(name) + 1, message=f"the page at {name} reporting")
        received = json.dumps(listener.requests)
        self.assertNotIn(self.session, received, "the session reached another service")
        self.assertNotIn("shelf_session", received)
        launch_key = urllib.parse.parse_qs(urllib.parse.urlparse(self.server.launch).query)["key"][0]
        # Whatever it received, replayed to shelf as shelf's own address, lets nothing in.
        for request in listener.requests:
            headers = {name: value for name, value in request["headers"].items() if name.lower() in ("cookie", "x-shelf-session")}
            headers.update({"Origin": self.server.url})
            status = self.status(self.server.url + "/api/status", headers)
            self.assertEqual(status, 401, request)
        # The launch address it might have seen (history, a shared screen) lets no second browser in.
        self.assertEqual(self.status(f"{self.server.url}/open?key={launch_key}", {}), 403)

    def status(self, url, headers):
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code

    def test_a_page_cannot_load_anything_from_another_origin(self):
        self.go("#/catalog")
        loaded = self.driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        self.assertTrue(loaded)
        self.assertTrue(all(url.startswith(self.server.url) for url in loaded), loaded)
