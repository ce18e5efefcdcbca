"""Books made by the reader's style tests: a book with its own embedded font, and (for images) a chapter whose
pictures are taller than the room left under a sentence."""

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


def png(width, height, rgb):
    """A PNG of one colour, made here (no imaging library needed)."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def pictures(path):
    """Pictures taller than the room left under a few sentences: a plain image, a figure of an SVG drawing with a
    caption, and a figure of an image with a caption, each after a short run of text."""
    short = lambda seed: "".join(f"<p>{prose(seed + n, 2)}</p>" for n in range(3))
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" id="drawing" width="100%" viewBox="0 0 400 700">'
           '<rect width="400" height="700" fill="#9bc"/><circle cx="200" cy="350" r="150" fill="#fff"/></svg>')
    body = ('<h1>Pictures</h1>' + short(10)
            + '<p class="picture"><img id="tall" src="tall.png" alt="A tall grey picture"/></p>' + short(20)
            + f'<figure id="svg-figure">{svg}<figcaption>Figure 1. The lamp, drawn.</figcaption></figure>' + short(30)
            + '<figure id="image-figure"><img src="tower.png" alt="The tower"/>'
            + '<figcaption>Figure 2. The tower from the sea.</figcaption></figure>' + short(40)
            + "".join(f"<p>{prose(500 + n, 5)}</p>" for n in range(6)))
    files = {
        "style.css": "p { margin: 0 0 .5em; } figure { margin: 1em 0; text-align: center; } figure img { width: 100%; }",
        "tall.png": png(300, 900, (128, 128, 128)),
        "tower.png": png(400, 800, (90, 120, 160)),
        "nav.xhtml": nav([("Pictures", "chapter1.xhtml", [])]),
        "chapter1.xhtml": xhtml("Pictures", body),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("tall", "tall.png", "image/png", ""), ("tower", "tower.png", "image/png", ""),
             ("c1", "chapter1.xhtml", XHTML, "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000102", "The Picture Chapter", "en", items, ["c1"])
    write(path, files)
