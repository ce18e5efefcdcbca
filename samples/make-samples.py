#!/usr/bin/env python3
"""Writes shelf's bundled sample books: a small EPUB 3 and a small EPUB 2, with text written for
this project (no third-party content). Run it again only to change the samples; the .epub files
are committed so that nothing is generated at build time."""
import zipfile, pathlib, html

HERE = pathlib.Path(__file__).resolve().parent

CHAPTERS_3 = [
    ("The Harbour", [
        "The ferry came in late that evening, low in the water and slow against the tide. Ada stood at the rail with her satchel and watched the lights of the harbour gather themselves out of the dark.",
        "Nobody met her. She had not expected anyone to, but she looked along the quay all the same, at the coils of rope and the stacked crates and the one lamp that swung above the harbour office door.",
        "The harbour master was a narrow man with ink on his cuffs. He read her letter twice, folded it along its old creases, and said that the lighthouse had been without a keeper since the spring.",
    ]),
    ("The Lamp Room", [
        "The stairs turned one hundred and twelve times. Ada counted them on the first night and never again, because by the second night her legs had learned the number for her.",
        "The lamp room smelled of paraffin and brass polish. The great lens stood in the middle like a glass beehive, each ring of prisms catching the last of the daylight and throwing it back in pieces.",
        "She trimmed the wick, wound the clockwork, and lit the lamp. The beam swung out over the water, and somewhere beyond the reef a fishing boat turned for home.",
    ]),
    ("The Logbook", [
        "The previous keeper had kept a careful log. Wind, weather, ships sighted, oil used: every line in the same small upright hand, every entry signed with two initials.",
        "In the back of the book, upside down, were other entries. A list of birds. A recipe for fish soup. A drawing of the lens with every prism numbered. And on the last page, a single line: the light is the easy part.",
        "Ada read that line many times over the winter. By the first thaw she understood it, and she wrote her own initials under his.",
    ]),
]

CHAPTERS_2 = [
    ("Departure", [
        "They left the village before dawn, when the frost still lay white on the cart tracks and the river breathed mist into the lanes.",
        "Tomas carried the map, although he knew the road by heart. His sister carried the lantern and the bread, and argued with him about which of those was heavier.",
    ]),
    ("The Frozen Lake", [
        "By noon they reached the lake. It had frozen from shore to shore, grey and silent, with the far bank no more than a pencil line under the low sky.",
        "Crossing took the whole afternoon. They walked a rope's length apart, testing the ice with a pole, and spoke only to call out the colour of the ice ahead: black was good, white was slow, grey was a detour.",
    ]),
    ("The Far Shore", [
        "On the far shore there was an inn with a red door and a fire that had been burning, the landlady said, since her grandmother's time.",
        "They slept in the loft above the stable, warm for the first time in two days, and in the morning the whole lake behind them shone like a polished plate.",
    ]),
]

def xhtml(title, paragraphs, lang, epub3):
    ns = ' xmlns:epub="http://www.idpf.org/2007/ops"' if epub3 else ""
    body = "\n".join(f"    <p>{html.escape(p)}</p>" for p in paragraphs)
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if not epub3:
        head += '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n'
    return (f'{head}<html xmlns="http://www.w3.org/1999/xhtml"{ns} xml:lang="{lang}">\n'
            f'<head><title>{html.escape(title)}</title><link rel="stylesheet" type="text/css" href="style.css"/></head>\n'
            f'<body>\n  <section>\n    <h1>{html.escape(title)}</h1>\n{body}\n  </section>\n</body>\n</html>\n')

CSS = "body { margin: 1em; line-height: 1.5; }\nh1 { font-size: 1.4em; }\n"
CONTAINER = ('<?xml version="1.0" encoding="UTF-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
             '  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\n</container>\n')
COVER_SVG = ('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900" viewBox="0 0 600 900">\n'
             '  <rect width="600" height="900" fill="#1d3557"/>\n  <circle cx="300" cy="260" r="90" fill="#f1c453"/>\n'
             '  <text x="300" y="560" font-size="54" text-anchor="middle" fill="#f1faee" font-family="serif">{title}</text>\n'
             '  <text x="300" y="640" font-size="32" text-anchor="middle" fill="#a8dadc" font-family="serif">{author}</text>\n</svg>\n')

def write(path, files):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        for name, data in files:
            z.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)

def epub3():
    title, author, lang = "The Lighthouse Keeper", "Maren Holt", "en"
    files = [("META-INF/container.xml", CONTAINER), ("OEBPS/style.css", CSS),
             ("OEBPS/cover.svg", COVER_SVG.format(title="The Lighthouse", author=author)),
             ("OEBPS/cover.xhtml", '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Cover</title></head>'
              '<body epub:type="cover"><img src="cover.svg" alt="Cover: The Lighthouse Keeper"/></body></html>\n')]
    manifest = ['<item id="cover-image" href="cover.svg" media-type="image/svg+xml" properties="cover-image"/>',
                '<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>',
                '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
                '<item id="css" href="style.css" media-type="text/css"/>']
    spine = ['<itemref idref="cover" linear="no"/>']
    nav_items = []
    for i, (t, ps) in enumerate(CHAPTERS_3, 1):
        files.append((f"OEBPS/chapter-{i}.xhtml", xhtml(t, ps, lang, True)))
        manifest.append(f'<item id="c{i}" href="chapter-{i}.xhtml" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="c{i}"/>')
        nav_items.append(f'<li><a href="chapter-{i}.xhtml">{t}</a></li>')
    nav = ('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>\n'
           f'<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>{"".join(nav_items)}</ol></nav>\n'
           '<nav epub:type="landmarks" hidden=""><ol><li><a epub:type="cover" href="cover.xhtml">Cover</a></li>'
           '<li><a epub:type="bodymatter" href="chapter-1.xhtml">Start</a></li></ol></nav>\n</body></html>\n')
    files.append(("OEBPS/nav.xhtml", nav))
    opf = f'''<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="{lang}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:6f1d3c1e-9a51-4c39-9d43-2f8a0c7b5e11</dc:identifier>
    <dc:title id="t1">{title}</dc:title>
    <meta refines="#t1" property="title-type">main</meta>
    <dc:creator id="a1">{author}</dc:creator>
    <meta refines="#a1" property="role" scheme="marc:relators">aut</meta>
    <meta refines="#a1" property="file-as">Holt, Maren</meta>
    <dc:language>{lang}</dc:language>
    <dc:publisher>shelf samples</dc:publisher>
    <dc:date>2026-11-29</dc:date>
    <dc:description>A new keeper, an old light, and a winter on the reef. Written for shelf's samples.</dc:description>
    <dc:subject>Fiction</dc:subject>
    <dc:rights>CC0-1.0</dc:rights>
    <meta property="dcterms:modified">2026-11-29T00:00:00Z</meta>
    <meta property="belongs-to-collection" id="s1">Coastal Tales</meta>
    <meta refines="#s1" property="collection-type">series</meta>
    <meta refines="#s1" property="group-position">1</meta>
  </metadata>
  <manifest>
    {chr(10).join("    " + m for m in manifest).strip()}
  </manifest>
  <spine>
    {chr(10).join("    " + s for s in spine).strip()}
  </spine>
</package>
'''
    files.append(("OEBPS/content.opf", opf))
    write(HERE / "the-lighthouse-keeper.epub", files)

def epub2():
    title, author, lang = "A Winter Crossing", "Jon Ellery", "en"
    files = [("META-INF/container.xml", CONTAINER), ("OEBPS/style.css", CSS)]
    manifest = ['<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
                '<item id="css" href="style.css" media-type="text/css"/>']
    spine, points = [], []
    for i, (t, ps) in enumerate(CHAPTERS_2, 1):
        files.append((f"OEBPS/chapter-{i}.xhtml", xhtml(t, ps, lang, False)))
        manifest.append(f'<item id="c{i}" href="chapter-{i}.xhtml" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="c{i}"/>')
        points.append(f'<navPoint id="np{i}" playOrder="{i}"><navLabel><text>{t}</text></navLabel><content src="chapter-{i}.xhtml"/></navPoint>')
    uid = "urn:uuid:0c9a4f52-7d7e-4d8e-b0f6-3a1b2c4d5e60"
    ncx = ('<?xml version="1.0" encoding="UTF-8"?>\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">\n'
           f'<head><meta name="dtb:uid" content="{uid}"/><meta name="dtb:depth" content="1"/></head>\n'
           f'<docTitle><text>{title}</text></docTitle>\n<navMap>{"".join(points)}</navMap>\n</ncx>\n')
    files.append(("OEBPS/toc.ncx", ncx))
    opf = f'''<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:identifier id="uid" opf:scheme="UUID">{uid}</dc:identifier>
    <dc:title>{title}</dc:title>
    <dc:creator opf:role="aut" opf:file-as="Ellery, Jon">{author}</dc:creator>
    <dc:language>{lang}</dc:language>
    <dc:publisher>shelf samples</dc:publisher>
    <dc:date>2026-11-29</dc:date>
    <dc:rights>CC0-1.0</dc:rights>
  </metadata>
  <manifest>
    {chr(10).join("    " + m for m in manifest).strip()}
  </manifest>
  <spine toc="ncx">
    {chr(10).join("    " + s for s in spine).strip()}
  </spine>
  <guide><reference type="text" title="Start" href="chapter-1.xhtml"/></guide>
</package>
'''
    files.append(("OEBPS/content.opf", opf))
    write(HERE / "a-winter-crossing.epub", files)

if __name__ == "__main__":
    epub3()
    epub2()
