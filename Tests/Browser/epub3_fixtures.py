"""Small EPUB 3 books, one per feature of EPUB 3.3 and EPUB Reading Systems 3.3 that the reader draws (issue 38):
each page says in words what passes, as the specification's own tests do, so a screenshot can be read alone."""

import zipfile

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="{opf}" media-type="application/oebps-package+xml"/></rootfiles></container>"""

XHTML = "application/xhtml+xml"

# A green square and a red one: what passes is green, what fails red (or nothing at all).
GREEN_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">'
             '<rect width="120" height="40" fill="#2a2"/><text x="8" y="26" fill="#fff">PASS</text></svg>')
RED_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">'
           '<rect width="120" height="40" fill="#c22"/><text x="8" y="26" fill="#fff">FAIL</text></svg>')


def xhtml(title, body, lang="en", head=""):
    return f"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="{lang}" lang="{lang}">
<head><meta charset="utf-8"/><title>{title}</title>{head}</head>
<body>{body}</body></html>"""


def nav(entries, lang="en"):
    links = "".join(f'<li><a href="{href}">{title}</a></li>' for title, href in entries)
    return xhtml("Contents", f'<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>{links}</ol></nav>', lang)


def package(identifier, title, language, items, spine, metadata="", ppd=None):
    """`items`: (id, href, media-type, extra attributes); `spine`: idrefs, or (idref, extra attributes)."""
    manifest = "\n".join(f'<item id="{i}" href="{h}" media-type="{t}"{p}/>' for i, h, t, p in items)
    refs = [(s, "") if isinstance(s, str) else s for s in spine]
    itemrefs = "\n".join(f'<itemref idref="{i}"{p}/>' for i, p in refs)
    direction = f' page-progression-direction="{ppd}"' if ppd else ""
    return f"""<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id" xml:lang="{language}"
 prefix="rendition: http://www.idpf.org/vocab/rendition/#">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="id">{identifier}</dc:identifier><dc:title>{title}</dc:title><dc:language>{language}</dc:language>
<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>{metadata}
</metadata>
<manifest>{manifest}</manifest>
<spine{direction}>{itemrefs}</spine>
</package>"""


def write(path, files, opf="OEBPS/package.opf", stored=()):
    """`files`: entry paths from the container root; those in `stored` are not compressed (their pages, one per
    1024 bytes as stored, are then as many as their length says)."""
    with zipfile.ZipFile(path, "w") as book:
        book.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml", CONTAINER.format(opf=opf), compress_type=zipfile.ZIP_DEFLATED)
        for name, data in files.items():
            book.writestr(name, data, compress_type=zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)


def paths(path):
    """Item 5. The package is in OEBPS/, the chapter two folders down; its images are at the container root, reached
    by going up past the package folder (`../../media/`), from the container root (`/media/`), and by going up past
    the root itself, which stays at the root (URLs cannot climb above it). A link from the root leads to chapter 2."""
    chapter1 = ('<h1>Paths</h1><p>Three green PASS boxes below: each image is found inside the book.</p>'
                '<p><img id="up" alt="up past the package folder" src="../../media/pass.svg"/></p>'
                '<p><img id="root" alt="from the container root" src="/media/pass.svg"/></p>'
                '<p><img id="above" alt="above the container root" src="../../../../media/pass.svg"/></p>'
                '<p><a id="rooted-link" href="/OEBPS/text/chapter2.xhtml#two">A link from the root to chapter 2</a></p>')
    chapter2 = '<h1 id="two">Chapter 2</h1><p>PASS if you came here by the link from the root.</p>'
    files = {
        "media/pass.svg": GREEN_SVG,
        "OEBPS/nav.xhtml": nav([("Paths", "text/chapter1.xhtml"), ("Chapter 2", "text/chapter2.xhtml")]),
        "OEBPS/text/chapter1.xhtml": xhtml("Paths", chapter1),
        "OEBPS/text/chapter2.xhtml": xhtml("Chapter 2", chapter2),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("c1", "text/chapter1.xhtml", XHTML, ""),
             ("c2", "text/chapter2.xhtml", XHTML, ""), ("img", "../media/pass.svg", "image/svg+xml", "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000005", "The Paths Fixture", "en",
                                         items, ["c1", "c2"])
    write(path, files)


def fallbacks(path):
    """Item 4. A spine item of a type no browser shows (a made-up one) with an XHTML fallback; an image of such a type
    with an SVG fallback; and a spine item of a foreign type without any fallback, which the reader must say it
    cannot show rather than print."""
    chapter1 = ('<h1>Fallbacks</h1><p>A green PASS box below: the image of a type the browser cannot show is '
                'replaced by its fallback.</p><p><img id="foreign-image" alt="the image" src="picture.x-shelf"/></p>')
    fallback = '<h1 id="fallback-page">Fallback page</h1><p>PASS: the foreign spine item was replaced by this, its fallback.</p>'
    files = {
        "OEBPS/nav.xhtml": nav([("Fallbacks", "chapter1.xhtml"), ("Foreign", "data.x-shelf"), ("Raw", "raw.json")]),
        "OEBPS/chapter1.xhtml": xhtml("Fallbacks", chapter1),
        "OEBPS/picture.x-shelf": "FAIL: the bytes of an image of a type no browser shows",
        "OEBPS/picture.svg": GREEN_SVG,
        "OEBPS/data.x-shelf": "FAIL: the bytes of a spine item of a type no browser shows",
        "OEBPS/fallback.xhtml": xhtml("Fallback page", fallback),
        "OEBPS/raw.json": '{"FAIL": "a spine item without a fallback printed as it is"}',
        "OEBPS/last.xhtml": xhtml("Last", '<h1>Last</h1><p>The chapter after the foreign ones.</p>'),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("c1", "chapter1.xhtml", XHTML, ""),
             ("pic", "picture.x-shelf", "image/x-shelf", ' fallback="pic-svg"'),
             ("pic-svg", "picture.svg", "image/svg+xml", ""),
             ("data", "data.x-shelf", "application/x-shelf", ' fallback="fb"'), ("fb", "fallback.xhtml", XHTML, ""),
             ("raw", "raw.json", "application/json", ""), ("last", "last.xhtml", XHTML, "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000004", "The Fallbacks Fixture", "en",
                                         items, ["c1", "data", "raw", "last"])
    write(path, files)


def prefixed(path):
    """Item 3. Vertical Japanese whose style sheet writes only the prefixed properties EPUB allows: emphasis marks
    (sesame dots) on a word, a number set across the column, full-width letters, the last line of a paragraph
    aligned to its end, and hyphens."""
    css = ("body { -epub-writing-mode: vertical-rl; } p { margin: 0 0 1em; }"
           " .dots { -epub-text-emphasis-style: filled sesame; -epub-text-emphasis-color: #c22; }"
           " .tcy { -epub-text-combine-horizontal: all; } .wide { -epub-text-transform: fullwidth; }"
           " .last { -epub-text-align-last: end; } .hy { -epub-hyphens: auto; }")
    body = ('<h1>傍点</h1><p>PASS: 赤い傍点が<span id="dots" class="dots">この言葉</span>の横にある。</p>'
            '<p>縦中横：<span id="tcy" class="tcy">12</span>月<span class="tcy">31</span>日。</p>'
            '<p>全角：<span id="wide" class="wide">abc</span>。</p><p id="last" class="last">行末揃え。</p>'
            '<p id="hy" class="hy">hyphenation</p>')
    files = {
        "OEBPS/style.css": css,
        "OEBPS/nav.xhtml": nav([("傍点", "chapter1.xhtml")], "ja"),
        "OEBPS/chapter1.xhtml": xhtml("傍点", body, "ja", '<link rel="stylesheet" href="style.css"/>'),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("c1", "chapter1.xhtml", XHTML, "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000003", "傍点の本", "ja",
                                         items, ["c1"], ppd="rtl")
    write(path, files)


def notes(path):
    """Item 7. A note reference (`epub:type="noteref"`) to a footnote in the same chapter and one to an endnote in
    another; a link out of the book; a mail address."""
    chapter1 = ('<h1>Notes and links</h1>'
                '<p>The keeper lit the lamp.<a id="ref1" epub:type="noteref" href="#fn1">1</a> '
                'His father had done the same.<a id="ref2" epub:type="noteref" href="endnotes.xhtml#en1">2</a></p>'
                '<p>PASS when each number opens its note in a pop-up here, with a way to go to the note.</p>'
                '<p><a id="outside" href="http://127.0.0.1:9/harbour">The harbour office</a> (a link out of the book: '
                'PASS when the reader says where it goes before going).</p>'
                '<p><a id="mail" href="mailto:keeper@example.org">Write to the keeper</a></p>'
                + "".join(f"<p>Filler paragraph {n} so the note is on another page.</p>" for n in range(40))
                + '<aside epub:type="footnote" id="fn1"><p>1. The lamp burned colza oil until 1870.</p></aside>')
    endnotes = ('<h1>Notes</h1><aside epub:type="endnote" id="en1"><p>2. His father kept the light for forty years.'
                '</p></aside>')
    files = {
        "OEBPS/nav.xhtml": nav([("Notes and links", "chapter1.xhtml"), ("Notes", "endnotes.xhtml")]),
        "OEBPS/chapter1.xhtml": xhtml("Notes and links", chapter1),
        "OEBPS/endnotes.xhtml": xhtml("Notes", endnotes),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("c1", "chapter1.xhtml", XHTML, ""),
             ("notes", "endnotes.xhtml", XHTML, "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000007", "The Notes Fixture", "en",
                                         items, ["c1", "notes"])
    write(path, files)


def spreads(path):
    """Item 1. A fixed-layout book whose spine says which pages share a spread: it opens with a spread (left, right),
    then a page in the centre alone, a right page alone, and a spread whose right page's viewport meta names its
    width and height twice (the first counts); the last page overrides the book's layout (reflowable). Each page
    says where it belongs."""
    pages = [("left", "#fde", "PASS when page 2 is beside me, on my right."),
             ("right", "#def", "PASS when page 1 is beside me, on my left."),
             ("center", "#efd", "PASS when I am alone, as tall as the pages of a spread."),
             ("right", "#ffd", "PASS when I am alone: no left page comes before me."),
             ("left", "#dff", "PASS when page 6 is beside me, on my right."),
             ("right", "#fdd", "PASS when page 5 is on my left and I am as big as it is.")]
    files = {}
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"')]
    spine = []
    for n, (side, colour, words) in enumerate(pages, start=1):
        viewport = "width=600, height=800, width=900, height=100" if n == 6 else "width=600, height=800"
        body = (f'<div style="width:600px;height:800px;background:{colour};font:40px sans-serif;padding:20px;'
                f'box-sizing:border-box"><h1>Page {n} ({side})</h1><p>{words}</p></div>')
        files[f"OEBPS/page{n}.xhtml"] = xhtml(f"Page {n}", body, head=f'<meta name="viewport" content="{viewport}"/>'
                                              '<style>body { margin: 0; }</style>')
        items.append((f"p{n}", f"page{n}.xhtml", XHTML, ""))
        spine.append((f"p{n}", f' properties="page-spread-{side}"'))
    # Page 7 overrides the book's layout: reflowable text, to be read as in a reflowable book.
    text = "".join(f"<p>Paragraph {k} of a page the spine lets reflow, read at the patron's text size.</p>" for k in range(60))
    files["OEBPS/page7.xhtml"] = xhtml("Page 7", f'<h1>Page 7 (reflowed)</h1><p>PASS when this text fills the reading '
                                       f'area and scrolls, not a narrow strip.</p>{text}')
    items.append(("p7", "page7.xhtml", XHTML, ""))
    spine.append(("p7", ' properties="rendition:layout-reflowable"'))
    files["OEBPS/nav.xhtml"] = nav([(f"Page {n}", f"page{n}.xhtml") for n in range(1, 8)])
    metadata = '<meta property="rendition:layout">pre-paginated</meta><meta property="rendition:spread">landscape</meta>'
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000001", "The Spreads Fixture", "en",
                                         items, spine, metadata)
    write(path, files)


def order(path):
    """Item 6. Chapter 1 links to a page the spine marks linear="no" (a side note outside the reading order), which
    must open visibly with a way back to where the link was; chapter 2 follows chapter 1."""
    chapter1 = ('<h1>Reading order</h1><p>PASS when the link below opens the side note, and its way back returns '
                'here.</p><p><a id="to-side" href="side.xhtml">Open the side note</a></p>')
    side = '<h1 id="side">Side note</h1><p>PASS: this page is outside the reading order, and you can go back.</p>'
    files = {
        "OEBPS/nav.xhtml": nav([("Reading order", "chapter1.xhtml"), ("Chapter 2", "chapter2.xhtml")]),
        "OEBPS/chapter1.xhtml": xhtml("Reading order", chapter1),
        "OEBPS/side.xhtml": xhtml("Side note", side),
        "OEBPS/chapter2.xhtml": xhtml("Chapter 2", "<h1>Chapter 2</h1><p>The chapter after chapter 1.</p>"),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("c1", "chapter1.xhtml", XHTML, ""),
             ("side", "side.xhtml", XHTML, ""), ("c2", "chapter2.xhtml", XHTML, "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000006", "The Order Fixture", "en",
                                         items, ["c1", ("side", ' linear="no"'), "c2"])
    write(path, files)


def twice(path):
    """Item 6. One manifest item listed twice in the spine (EPUB 3.3 allows it): a refrain read after chapter 1 and
    again after chapter 2. Each entry is a page of its own: Next goes through both, and the page counter counts
    both. The chapters and the refrain are stored uncompressed, four pages each."""
    def text(name, words):
        paragraphs = "".join(f"<p>{name} line {k}: the keeper climbed, lit the lamp and watched the sea.</p>" for k in range(36))
        return f"<h1>{name}</h1><p>{words}</p>{paragraphs}"
    files = {
        "OEBPS/nav.xhtml": nav([("Chapter 1", "chapter1.xhtml"), ("Refrain", "refrain.xhtml"), ("Chapter 2", "chapter2.xhtml")]),
        "OEBPS/chapter1.xhtml": xhtml("Chapter 1", text("Chapter 1", "The refrain follows.")),
        "OEBPS/refrain.xhtml": xhtml("Refrain", text("Refrain", "PASS when you read me after chapter 1 and again after chapter 2.")),
        "OEBPS/chapter2.xhtml": xhtml("Chapter 2", text("Chapter 2", "The refrain comes again after me.")),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("c1", "chapter1.xhtml", XHTML, ""),
             ("refrain", "refrain.xhtml", XHTML, ""), ("c2", "chapter2.xhtml", XHTML, "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000026", "The Twice Fixture", "en",
                                         items, ["c1", "refrain", "c2", "refrain"])
    write(path, files, stored={"OEBPS/chapter1.xhtml", "OEBPS/refrain.xhtml", "OEBPS/chapter2.xhtml"})


def fixed_page(path):
    """Item 1. A reflowable book whose second spine entry is a fixed-layout page (rendition:layout-pre-paginated):
    drawn whole at the size its viewport declares, scaled to fit, not laid out as text."""
    def chapter(n):
        paragraphs = "".join(f"<p>Paragraph {n}.{k} of a chapter of text, laid out in pages.</p>" for k in range(30))
        return xhtml(f"Chapter {n}", f"<h1>Chapter {n}</h1>{paragraphs}")
    plate = ('<div id="plate" style="width:600px;height:800px;background:#def;font:40px sans-serif;padding:30px;'
             'box-sizing:border-box;border:12px solid #2a2"><h1>A plate</h1><p>PASS when I am drawn whole, my green '
             'frame all round, scaled to fit: not laid out as text in columns.</p></div>')
    files = {
        "OEBPS/nav.xhtml": nav([("Chapter 1", "chapter1.xhtml"), ("A plate", "plate.xhtml"), ("Chapter 2", "chapter2.xhtml")]),
        "OEBPS/chapter1.xhtml": chapter(1),
        "OEBPS/plate.xhtml": xhtml("A plate", plate, head='<meta name="viewport" content="width=600, height=800"/>'
                                   '<style>body { margin: 0; }</style>'),
        "OEBPS/chapter2.xhtml": chapter(2),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("c1", "chapter1.xhtml", XHTML, ""),
             ("plate", "plate.xhtml", XHTML, ""), ("c2", "chapter2.xhtml", XHTML, "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000011", "The Plate Fixture", "en", items,
                                         ["c1", ("plate", ' properties="rendition:layout-pre-paginated"'), "c2"])
    write(path, files)


def arabic(path):
    """Item 6. Arabic prose whose spine declares no page progression: the reader follows its language (right to
    left: the next page is on the left)."""
    text = "".join(f"<p>صعد حارس المنارة الدرج عند الغسق وأشعل المصباح كما فعل أبوه من قبله. ({n})</p>" * 3
                   for n in range(1, 40))
    files = {
        "OEBPS/nav.xhtml": nav([("الفصل الأول", "chapter1.xhtml")], "ar"),
        "OEBPS/chapter1.xhtml": xhtml("الفصل الأول", "<h1>الفصل الأول</h1><p>PASS when pages turn to the left.</p>"
                                      + text, "ar"),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("c1", "chapter1.xhtml", XHTML, "")]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000016", "المنارة", "ar", items, ["c1"])
    write(path, files)


def flow(path):
    """Item 2. A book that asks to be scrolled, its chapters following each other as one scroll (rendition:flow
    scrolled-continuous), except chapter 3, whose spine entry asks for pages (rendition:flow-paginated)."""
    def chapter(n, words):
        paragraphs = "".join(f"<p>Paragraph {n}.{k} of a chapter long enough to scroll through.</p>" for k in range(60))
        return xhtml(f"Chapter {n}", f'<h1>Chapter {n}</h1><p>{words}</p>{paragraphs}<p id="end{n}">End of chapter {n}.</p>')
    files = {
        "OEBPS/nav.xhtml": nav([(f"Chapter {n}", f"chapter{n}.xhtml") for n in range(1, 4)]),
        "OEBPS/chapter1.xhtml": chapter(1, "PASS when this chapter scrolls, and chapter 2 follows its end as you scroll on."),
        "OEBPS/chapter2.xhtml": chapter(2, "PASS when you scrolled here from the end of chapter 1."),
        "OEBPS/chapter3.xhtml": chapter(3, "PASS when this chapter is in pages: its spine entry asks for them."),
    }
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"')] + [(f"c{n}", f"chapter{n}.xhtml", XHTML, "") for n in range(1, 4)]
    files["OEBPS/package.opf"] = package("urn:uuid:38000000-0000-4000-8000-000000000002", "The Flow Fixture", "en", items,
                                         ["c1", "c2", ("c3", ' properties="rendition:flow-paginated"')],
                                         '<meta property="rendition:flow">scrolled-continuous</meta>')
    write(path, files)


MAKERS = {"flow": flow, "order": order, "twice": twice, "fixed_page": fixed_page, "arabic": arabic, "spreads": spreads, "paths": paths, "fallbacks": fallbacks, "prefixed": prefixed, "notes": notes}
