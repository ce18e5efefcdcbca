"""Small EPUB 3 books made by the reader's browser tests, so that every test runs without ../shared/corpus:
a reflowable book with a cover, a nested table of contents and a script; a fixed-layout book; a right-to-left
book; a vertical Japanese book; a book of three chapters linked to each other."""

import random
import zipfile

WORDS = ("keeper stair dusk lamp father ships dark name harbour gull rope tide salt window glass oil wick stone wall "
         "night morning boat island wind rain storm bell gallery lens beam rock shore cliff fog horn log letter bread").split()


def prose(seed, sentences):
    """Sentences of varied words: text that does not compress to nothing, so that it makes several pages."""
    chooser = random.Random(seed)
    return " ".join(" ".join(chooser.choice(WORDS) for _ in range(chooser.randint(6, 14))).capitalize() + "."
                    for _ in range(sentences))

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"""


def xhtml(title, body, lang="en", head="", dir_=None):
    direction = f' dir="{dir_}"' if dir_ else ""
    return f"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="{lang}" lang="{lang}"{direction}>
<head><meta charset="utf-8"/><title>{title}</title><link rel="stylesheet" href="style.css"/>{head}</head>
<body>{body}</body></html>"""


def package(identifier, title, language, items, spine, properties="", ppd=None):
    manifest = "\n".join(f'<item id="{i}" href="{h}" media-type="{t}"{p}/>' for i, h, t, p in items)
    itemrefs = "\n".join(f'<itemref idref="{i}"/>' for i in spine)
    direction = f' page-progression-direction="{ppd}"' if ppd else ""
    return f"""<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="{language}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">{identifier}</dc:identifier><dc:title>{title}</dc:title><dc:language>{language}</dc:language>
<dc:creator>Maren Holt</dc:creator><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>{properties}
</metadata>
<manifest>{manifest}</manifest>
<spine{direction}>{itemrefs}</spine>
</package>"""


def nav(entries, lang="en", bodymatter="chapter1.xhtml"):
    def items(nodes):
        out = []
        for title, href, children in nodes:
            inner = f'<ol>{items(children)}</ol>' if children else ""
            out.append(f'<li><a href="{href}">{title}</a>{inner}</li>')
        return "".join(out)
    body = (f'<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>{items(entries)}</ol></nav>'
            f'<nav epub:type="landmarks"><ol><li><a epub:type="bodymatter" href="{bodymatter}">Start</a></li></ol></nav>')
    return xhtml("Contents", body, lang)


def write(path, files):
    with zipfile.ZipFile(path, "w") as book:
        book.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml", CONTAINER, compress_type=zipfile.ZIP_DEFLATED)
        for name, data in files.items():
            book.writestr("OEBPS/" + name, data, compress_type=zipfile.ZIP_DEFLATED)


XHTML = "application/xhtml+xml"


def reflowable(path):
    """A novel: cover, chapter one (long, with a section to jump to and a script that must not run), chapter two."""
    paragraphs = "".join(f"<p>{prose(n, 8)} ({n})</p>" for n in range(1, 41))
    chapter1 = (f'<h1>Chapter One</h1>{paragraphs}<h2 id="storm">The Storm</h2>'
                + "".join(f"<p>The storm came in from the west. {prose(100 + n, 5)} [{n}]</p>" for n in range(1, 21))
                + '<p id="quotable">A lighthouse is a promise kept in the dark.</p>')
    script = ('<script>//<![CDATA[\ndocument.title = "SCRIPT RAN"; document.body && document.body.setAttribute("data-script", "ran");'
              'fetch("/api/status").then(r => { document.documentElement.setAttribute("data-api", String(r.status)); });'
              'document.documentElement.setAttribute("data-cookie", document.cookie || "none");\n//]]></script>')
    files = {
        "style.css": "p { text-indent: 1.5em; margin: 0; color: #222; font-family: Georgia, serif; } h1 { text-align: center; }",
        "cover.xhtml": xhtml("Cover", '<p style="text-align:center">THE LIGHTHOUSE KEEPER</p>'),
        "nav.xhtml": nav([("Cover", "cover.xhtml", []), ("Chapter One", "chapter1.xhtml", [("The Storm", "chapter1.xhtml#storm", [])]),
                          ("Chapter Two", "chapter2.xhtml", [])]),
        "chapter1.xhtml": xhtml("Chapter One", chapter1, head=script),
        "chapter2.xhtml": xhtml("Chapter Two", "<h1>Chapter Two</h1>" + "".join(f"<p>Morning. {prose(200 + n, 4)}</p>" for n in range(30))),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("cover", "cover.xhtml", XHTML, ""), ("c1", "chapter1.xhtml", XHTML, ' properties="scripted"'),
             ("c2", "chapter2.xhtml", XHTML, "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000001", "The Lighthouse Fixture", "en", items, ["cover", "c1", "c2"])
    write(path, files)


def fixed(path):
    """A picture book of five fixed-layout pages, 600 by 800, spreads allowed."""
    files = {"style.css": "body { margin: 0; width: 600px; height: 800px; } div { width: 600px; height: 800px; font: 60px sans-serif; }"}
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", "")]
    for n in range(1, 6):
        colour = ["#fde", "#def", "#efd", "#ffd", "#dff"][n - 1]
        files[f"page{n}.xhtml"] = xhtml(f"Page {n}", f'<div style="background:{colour}">Page {n}</div>',
                                        head='<meta name="viewport" content="width=600, height=800"/>')
        items.append((f"p{n}", f"page{n}.xhtml", XHTML, ""))
    files["nav.xhtml"] = nav([(f"Page {n}", f"page{n}.xhtml", []) for n in range(1, 6)], bodymatter="page1.xhtml")
    props = ('<meta property="rendition:layout">pre-paginated</meta><meta property="rendition:spread">auto</meta>')
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000002", "The Picture Fixture", "en", items,
                                   [f"p{n}" for n in range(1, 6)], props).replace(
        '<package ', '<package prefix="rendition: http://www.idpf.org/vocab/rendition/#" ')
    write(path, files)


def rtl(path):
    """Hebrew prose, right to left."""
    text = "".join(f"<p>שומר המגדלור עלה במדרגות עם רדת החשכה והדליק את המנורה, כפי שעשה אביו לפניו. ({n})</p>" * 3 for n in range(1, 40))
    files = {"style.css": "p { margin: 0 0 .5em; }",
             "nav.xhtml": nav([("פרק א", "chapter1.xhtml", [])], "he"),
             "chapter1.xhtml": xhtml("פרק א", "<h1>פרק א</h1>" + text, "he", dir_="rtl")}
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""), ("c1", "chapter1.xhtml", XHTML, "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000003", "המגדלור", "he", items, ["c1"], ppd="rtl")
    write(path, files)


def vertical(path):
    """Japanese in vertical writing (set on body, as publishers often do), pages from right to left."""
    text = "".join(f"<p>灯台守は夕暮れに階段を上り、父がそうしたように灯をともした。船は闇の中を通り過ぎていった。（{n}）</p>" for n in range(1, 80))
    files = {"style.css": "body { writing-mode: vertical-rl; -epub-writing-mode: vertical-rl; } p { margin: 0; }",
             "nav.xhtml": nav([("第一章", "chapter1.xhtml", [])], "ja"),
             "chapter1.xhtml": xhtml("第一章", "<h1>第一章</h1>" + text, "ja")}
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""), ("c1", "chapter1.xhtml", XHTML, "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000004", "灯台守", "ja", items, ["c1"], ppd="rtl")
    write(path, files)


def framed(path):
    """A chapter that shows pages of its own book in an iframe, an object and an embed (an interactive figure, a
    map), and one that frames what is not the book's (another site, the app's own API)."""
    figure = xhtml("Figure", '<p id="figure-text">FIGURE ONE OF THE BOOK</p>')
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
           '<text x="10" y="50" id="svg-text">SVG FIGURE</text></svg>')
    chapter = ('<h1>Figures</h1><p>Before the figures.</p>'
               '<iframe id="own-frame" src="figure.xhtml" title="The figure" width="400" height="150"></iframe>'
               '<object id="own-object" data="map.svg" type="image/svg+xml" width="200" height="100">no object</object>'
               '<embed id="own-embed" src="map.svg" type="image/svg+xml" width="200" height="100"/>'
               '<iframe id="foreign-frame" src="/api/status" title="Not the book" width="200" height="50"></iframe>'
               '<p>After the figures.</p>')
    files = {
        "style.css": "p { margin: 0; }",
        "nav.xhtml": nav([("Figures", "chapter1.xhtml", [])]),
        "chapter1.xhtml": xhtml("Figures", chapter),
        "figure.xhtml": figure,
        "map.svg": svg,
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("c1", "chapter1.xhtml", XHTML, ""), ("fig", "figure.xhtml", XHTML, ""), ("map", "map.svg", "image/svg+xml", "")]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000005", "The Figure Fixture", "en", items, ["c1"])
    write(path, files)


def scripted(path, identifier, title, script, body="<p>An interactive page.</p>"):
    """A book of one chapter the package declares scripted, whose script (in its head) is `script`."""
    head = f'<script>//<![CDATA[\n{script}\n//]]></script>'
    files = {
        "style.css": "p { margin: 0; }",
        "nav.xhtml": nav([("Chapter", "chapter1.xhtml", [])]),
        "chapter1.xhtml": xhtml(title, f"<h1>{title}</h1>{body}", head=head),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("c1", "chapter1.xhtml", XHTML, ' properties="scripted"')]
    files["package.opf"] = package(identifier, title, "en", items, ["c1"])
    write(path, files)


def chapters(path):
    """Three chapters of several screens each, every paragraph numbered, the first starting with links to the
    others (a chapter reached by a link), for reading every screen of a book in turn."""
    def chapter(n, links=""):
        paragraphs = "".join(f"<p>{prose(1000 * n + k, 6)} ({n}.{k})</p>" for k in range(1, 46))
        return xhtml(f"Chapter {n}", f"<h1>Chapter {n}</h1>{links}{paragraphs}")
    links = '<p><a id="to-two" href="chapter2.xhtml">On to chapter 2</a> <a id="to-three" href="chapter3.xhtml#end">the end</a></p>'
    files = {
        "style.css": "p { margin: 0 0 .4em; }",
        "nav.xhtml": nav([(f"Chapter {n}", f"chapter{n}.xhtml", []) for n in range(1, 4)]),
        "chapter1.xhtml": chapter(1, links),
        "chapter2.xhtml": chapter(2),
        "chapter3.xhtml": chapter(3).replace("</body>", '<p id="end">The end.</p></body>'),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", "")]
    items += [(f"c{n}", f"chapter{n}.xhtml", XHTML, "") for n in range(1, 4)]
    files["package.opf"] = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000006", "The Chapters Fixture", "en", items, ["c1", "c2", "c3"])
    write(path, files)


MAKERS = {"reflowable": reflowable, "chapters": chapters, "fixed": fixed, "rtl": rtl, "vertical": vertical, "framed": framed}
