"""Books made by the reader's style tests: a book with its own embedded font."""

import os

from epub_fixtures import XHTML, nav, package, prose, write, xhtml

# A font the machine has (chromium's own dependencies bring DejaVu), embedded in the book under a name of its own,
# so that it can show only if the book's @font-face is honoured.
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Oblique.ttf"
FAMILY = "Keeper Mono"


def fonted(path):
    """A novel set in its own embedded font (for p and h1), with the publisher's small capitals on a name."""
    with open(FONT, "rb") as font:
        data = font.read()
    style = (f'@font-face {{ font-family: "{FAMILY}"; src: url(fonts/keeper.ttf) format("truetype"); }}\n'
             f'body, p, h1 {{ font-family: "{FAMILY}", monospace; }}\n'
             'p { text-indent: 1.5em; margin: 0; } .name { font-variant: small-caps; }')
    body = ('<h1>The Keeper’s Log</h1>'
            + "".join(f'<p><span class="name">Maren Holt</span> wrote: {prose(300 + n, 6)}</p>' for n in range(1, 30)))
    files = {
        "style.css": style,
        "fonts/keeper.ttf": data,
        "nav.xhtml": nav([("The Keeper’s Log", "chapter1.xhtml", [])]),
        "chapter1.xhtml": xhtml("The Keeper’s Log", body),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("font", "fonts/keeper.ttf", "font/ttf", ""), ("c1", "chapter1.xhtml", XHTML, "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000101", "The Keeper’s Log", "en", items, ["c1"])
    write(path, files)


def available():
    return os.path.exists(FONT)

