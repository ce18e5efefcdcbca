"""The browser test rig: the fake library and `shelf serve` as processes, Chromium headless through
chromium-driver, axe-core on every page and state, the API's answers checked against its OpenAPI document,
and a screenshot of every page kept under .build/browser-artifacts/."""

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from selenium_axe_python import Axe

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("SHELF_BUILD_DIR", os.path.join(ROOT, ".build", "debug"))
ARTIFACTS = os.path.join(ROOT, ".build", "browser-artifacts")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# Browsers resolve every name under `localhost` to loopback (RFC 6761), and shelf's origins are such names
# (shelf.localhost, each book's); Python asks the system resolver, which may not: the tests' own calls resolve them
# as the browser does.
_getaddrinfo = socket.getaddrinfo


def _loopback_names(host, *args, **kwargs):
    if isinstance(host, str) and host.endswith(".localhost"):
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _loopback_names


def read_line(process, what, timeout=60):
    """The first line a child prints (its address as JSON), or a failure that says what it printed instead."""
    deadline = time.time() + timeout
    line = process.stdout.readline()
    if not line or time.time() > deadline:
        raise RuntimeError(f"{what} printed nothing: {process.stderr.read() if process.stderr else ''}")
    return json.loads(line)


class Library:
    """shelf-fake-library: Palace's wire format on loopback, with /control routes to change its state."""

    def __init__(self):
        self.process = subprocess.Popen([os.path.join(BUILD, "shelf-fake-library")], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        card = read_line(self.process, "shelf-fake-library")
        self.root, self.username, self.password, self.control_url = card["root"], card["username"], card["password"], card["control"]

    def control(self, action, **query):
        url = f"{self.control_url}/{action}?" + "&".join(f"{k}={urllib.request.quote(str(v))}" for k, v in query.items())
        urllib.request.urlopen(urllib.request.Request(url, method="POST"), timeout=10).read()

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


class Server:
    """`shelf serve --json` in a home of its own."""

    def __init__(self, home=None):
        self.home = home or tempfile.mkdtemp(prefix="shelf-browser-")
        env = dict(os.environ, SHELF_HOME=self.home, HOME=self.home, NO_COLOR="1", SHELF_HTTP_RETRIES="1", SHELF_HTTP_TIMEOUT="10")
        env.pop("SHELF_PLUGIN_PATH", None)
        self.env = env
        self.start()

    def start(self):
        # What the server says on standard error (the requests it refused) is kept in a file the tests read.
        self.errors = os.path.join(self.home, "serve-stderr.txt")
        with open(self.errors, "a") as errors:
            self.process = subprocess.Popen([os.path.join(BUILD, "shelf"), "serve", "--json"], env=self.env,
                                            stdout=subprocess.PIPE, stderr=errors, text=True)
        started = read_line(self.process, "shelf serve")
        self.url, self.launch = started["url"].rstrip("/"), started["open"]
        self.port = int(self.url.rsplit(":", 1)[1])

    def refusals(self):
        """The lines in which the server said it refused a request."""
        with open(self.errors) as errors:
            return [line.strip() for line in errors if "refused" in line]

    def restart(self):
        """Stops the server and starts it again on the same home (a patron's next `shelf serve`)."""
        self.process.terminate()
        self.process.wait(timeout=20)
        self.start()

    def shelf(self, *args, stdin=None):
        """Runs the command line on the same home (to set up what a test needs, as a patron could)."""
        return subprocess.run([os.path.join(BUILD, "shelf"), *args], env=self.env, input=stdin, capture_output=True, text=True, timeout=120)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)
        shutil.rmtree(self.home, ignore_errors=True)


class Listener:
    """Another service on loopback (or a stand-in for a remote one): it keeps every request it receives, with its
    headers, and answers a page whose script reports what it can see of the browser's storage to /report."""

    PAGE = (b"<!doctype html><title>another service</title><script>"
            b"fetch('/report?' + new URLSearchParams({cookie: document.cookie,"
            b" storage: JSON.stringify(Object.assign({}, localStorage, sessionStorage))}));"
            b"</script><p>another service</p>")

    def __init__(self):
        import http.server
        import socketserver
        import threading
        self.requests = []
        listener = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self):
                listener.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers)})
                body = Listener.PAGE if self.path == "/" else b"ok"
                self.send_response(200)
                self.send_header("Content-Type", "text/html" if self.path == "/" else "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = answer

            def log_message(self, *args):
                pass

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reports(self):
        return [r for r in self.requests if r["path"].startswith("/report")]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class OpenAPIChecker:
    """Checks an answer of the API against the server's own OpenAPI document (/api/openapi.json)."""

    def __init__(self, document):
        import jsonschema
        self.document = document
        self.jsonschema = jsonschema

    def operation(self, method, path):
        for template, item in self.document["paths"].items():
            pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
            if re.match(pattern, path) and method.lower() in item:
                return item[method.lower()]
        raise AssertionError(f"{method} {path} is not in the OpenAPI document")

    def resolve(self, node):
        while isinstance(node, dict) and "$ref" in node:
            target = self.document
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def check(self, method, path, status, body):
        responses = self.operation(method, path)["responses"]
        if str(status) not in responses:
            raise AssertionError(f"{method} {path} answered {status}, which the OpenAPI document does not list: {body}")
        content = self.resolve(responses[str(status)]).get("content", {})
        media = content.get("application/json") or content.get("application/problem+json")
        if media is None:
            return
        # The schema is checked with the document's components beside it, so its $refs resolve.
        schema = dict(media["schema"], components=self.document["components"])
        self.jsonschema.validate(body, schema, cls=self.jsonschema.Draft202012Validator)


class BrowserTestCase(unittest.TestCase):
    """A fake library, a server, and a Chromium let in with the launch key. Subclasses drive the app."""

    @classmethod
    def setUpClass(cls):
        os.makedirs(ARTIFACTS, exist_ok=True)

    def setUp(self):
        self.library = Library()
        self.addCleanup(self.library.stop)
        self.server = Server()
        self.addCleanup(self.server.stop)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1000",
                         "--no-first-run", "--disable-extensions", "--lang=en-GB"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.addCleanup(self.driver.quit)
        self.driver.set_script_timeout(30)
        # Every text the polite live region is given, kept in the page: an announcement a later one replaces
        # ("Downloading …" before "… downloaded") was said all the same, and a test may look after the fact.
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.__announced = [];
            document.addEventListener('DOMContentLoaded', () => {
              const region = document.getElementById('announcer');
              if (!region) return;
              new MutationObserver(() => { if (region.textContent) window.__announced.push(region.textContent); })
                .observe(region, { childList: true, characterData: true, subtree: true });
            });"""})
        self.driver.get(self.server.launch)
        self.wait_for(lambda d: d.current_url.startswith(self.server.url + "/#/") or d.current_url == self.server.url + "/")
        self.session = self.driver.execute_script("return localStorage.getItem('shelf.session')")
        self.assertTrue(self.session, "the launch key gives the app's origin a session")
        self.openapi = OpenAPIChecker(self.api("GET", "/api/openapi.json", check=False))

    # MARK: The API, as the page calls it

    def api(self, method, path, body=None, check=True):
        """Calls the API with the browser's session and origin, and checks the answer against the OpenAPI document."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server.url + path, data=data, method=method, headers={
            "X-Shelf-Session": self.session, "Origin": self.server.url, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, text = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        value = json.loads(text) if text else None
        if check:
            self.openapi.check(method, path.split("?")[0], status, value)
        return value

    def add_library_and_sign_in(self):
        self.api("POST", "/api/accounts", {"url": self.library.root, "name": "fake"})
        self.api("POST", "/api/accounts/fake/sign-in", {"barcode": self.library.username, "pin": self.library.password})
        # shelf knows a title once it has seen it in the catalog, as a patron would have.
        self.api("GET", "/api/catalog?format=all")

    # MARK: Looking at the page

    def wait_for(self, condition, timeout=30, message=""):
        # The page redraws what it shows, so an element found a moment ago may be gone: look again.
        return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                             ignored_exceptions=[StaleElementReferenceException]).until(condition, message)

    def go(self, hash_route):
        """Opens a page by its address and waits until that page (not the one before) has drawn."""
        self.driver.execute_script("document.querySelectorAll('main h1').forEach(h => h.dataset.before = '1')")
        target = self.server.url + "/" + hash_route
        if self.driver.current_url == target:
            self.driver.refresh()  # the same address again does not load the page again
        else:
            self.driver.get(target)
        self.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "main h1:not([data-before])")
                      and not d.find_elements(By.CSS_SELECTOR, "main .loading"))

    def find(self, css):
        return self.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, css), message=css)

    def text(self, css="main"):
        return self.find(css).text

    def wait_for_text(self, text, css="main", timeout=30):
        self.wait_for(lambda d: text in d.find_element(By.CSS_SELECTOR, css).text, timeout, f"“{text}” in {css}")

    def announced(self, text, timeout=30):
        """Waits until the polite live region has said `text` since the page loaded (it may have moved on since)."""
        said = lambda d: d.execute_script("return window.__announced || []") + [d.find_element(By.ID, "announcer").text]
        self.wait_for(lambda d: any(text in t for t in said(d)), timeout, f"the live region saying “{text}”")

    def focused(self):
        return self.driver.switch_to.active_element

    # MARK: Keyboard only: keys go to the focused element, never a click

    def press(self, *keys):
        for key in keys:
            self.focused().send_keys(key)

    def tab_to(self, predicate, limit=80, backwards=False):
        """Presses Tab (or Shift+Tab) until the focused element satisfies `predicate`."""
        for _ in range(limit):
            self.press(Keys.SHIFT + Keys.TAB if backwards else Keys.TAB)
            element = self.focused()
            if predicate(element):
                return element
        self.fail("Tab never reached the element")

    def tab_to_text(self, text, **options):
        return self.tab_to(lambda e: e.text.strip() == text or e.get_attribute("aria-label") == text, **options)

    # MARK: Checks on every page and state

    def check_page(self, name):
        """axe finds nothing serious or critical, and a screenshot is kept."""
        self.driver.save_screenshot(os.path.join(ARTIFACTS, f"{name}.png"))
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run()
        bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        self.assertEqual(bad, [], f"{name}: " + Axe.report(bad))
