"""`shelf serve --open FILE`: a second `shelf serve --open FILE` reuses the running server and starts the browser on
an address that opens FILE: an EPUB in the reader at its first page, an audiobook in the player (not playing), the
book put on the shelf as `shelf add FILE` puts it. A stand-in for xdg-open writes down the address it was given, and
Chromium goes there as the patron's browser would."""

import json
import os
import subprocess
import tempfile
import urllib.parse

import audiobook_fixtures
import epub_fixtures
from rig import BrowserTestCase, BUILD


class OpenFileTests(BrowserTestCase):
    def open_address(self, path):
        """What a second `shelf serve --open PATH` starts the browser on."""
        folder = tempfile.mkdtemp(prefix="shelf-open-")
        opened = os.path.join(folder, "opened.txt")
        script = os.path.join(folder, "xdg-open")
        with open(script, "w") as out:
            out.write(f"#!/bin/sh\necho \"$1\" >> '{opened}'\n")
        os.chmod(script, 0o755)
        env = dict(self.server.env, PATH=folder + ":" + os.environ.get("PATH", "/usr/bin:/bin"))
        answer = subprocess.run([os.path.join(BUILD, "shelf"), "serve", "--open", path, "--json"], env=env,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(answer.returncode, 0, answer.stderr)
        self.assertTrue(json.loads(answer.stdout)["reused"])
        with open(opened) as lines:
            return lines.read().strip()

    def shelf_ids(self):
        return [book["id"] for book in json.loads(self.server.shelf("books", "--json").stdout)]

    def test_an_epub_opens_in_the_reader_at_its_first_page(self):
        path = os.path.join(tempfile.mkdtemp(prefix="shelf-open-book-"), "reflowable.epub")
        epub_fixtures.reflowable(path)
        self.driver.get(self.open_address(path))
        self.wait_for(lambda d: "/reader.html?" in d.current_url, message="the reader")
        self.wait_for(lambda d: d.execute_script("const r = window.shelfReader; return !!(r && r.view && r.view.frame)"),
                      message="the book's first page")
        # The book is on the shelf now, and the reader shows it: its title is the page's.
        ids = self.shelf_ids()
        self.assertEqual(len(ids), 1)
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.driver.current_url).query)
        self.assertEqual(query["book"], ids)
        self.assertNotIn("not in the browser app", self.driver.page_source)
        self.check_page("open-file-reader")

    def test_an_audiobook_opens_in_the_player_without_playing(self):
        path = os.path.join(tempfile.mkdtemp(prefix="shelf-open-audio-"), "bells.audiobook")
        audiobook_fixtures.audiobook(path)
        self.driver.get(self.open_address(path))
        self.wait_for(lambda d: "#/listen?" in d.current_url, message="the player")
        self.find("#play")
        self.assertTrue(self.driver.execute_script("return document.querySelector('audio').paused"))
        self.assertEqual(len(self.shelf_ids()), 1)
        self.check_page("open-file-player")

    def test_an_address_without_the_launch_key_opens_nothing(self):
        # The page asks for the file by a token only /open gave: a link made elsewhere cannot name a file.
        self.go("#/open?request=made-up")
        self.wait_for_text("could not be opened")
        self.assertEqual(self.shelf_ids(), [])
