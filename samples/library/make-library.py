#!/usr/bin/env python3
"""Writes shelf's bundled sample library: a static OPDS 1 catalog on disk (catalog.xml, with format tabs All,
eBooks and Audiobooks as Palace-style entry points: ebooks.xml and audiobooks.xml), the two sample EPUBs as
open-access titles, and two small audiobooks of our own (Readium audiobook manifests over short WAV tracks: a
few chimes each, 8 kHz mono, made here). Everything is written for this project (CC0). The files are committed;
run this again only to change them. `make sample` adds the folder as an account and browses its Audiobooks tab."""
import html, json, math, pathlib, struct, wave

HERE = pathlib.Path(__file__).resolve().parent
RATE = 8000

def chimes(path, notes, seconds):
    """A short track: one decaying chime per note (Hz), 8-bit mono at 8 kHz."""
    frames = bytearray()
    per = int(RATE * seconds / len(notes))
    for freq in notes:
        for i in range(per):
            t = i / RATE
            value = math.sin(2 * math.pi * freq * t) * math.exp(-4 * t) * 0.6
            frames.append(int(128 + 127 * value))
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1); w.setsampwidth(1); w.setframerate(RATE); w.writeframes(bytes(frames))
    return len(frames) / RATE

AUDIOBOOKS = [
    ("urn:shelf:sample:harbour-bells", "Harbour Bells", "Maren Holt",
     "The harbour's evening bells, rung once for each boat still out, and once more when the last comes in.",
     [("Evening", [523, 659, 784]), ("The Last Boat", [784, 659, 523, 392])]),
    ("urn:shelf:sample:lamp-room-clock", "The Lamp Room Clock", "Jon Ellery",
     "The clockwork that turns the lens, wound at dusk: three strokes to start it, one to say it runs.",
     [("Winding", [440, 440, 440, 880])]),
]

EBOOKS = [
    ("urn:uuid:6f1d3c1e-9a51-4c39-9d43-2f8a0c7b5e11", "The Lighthouse Keeper", "Maren Holt", "the-lighthouse-keeper.epub",
     "A new keeper comes to a lighthouse that has stood dark since spring, and learns what the last keeper meant."),
    ("urn:shelf:sample:a-winter-crossing", "A Winter Crossing", "Jon Ellery", "a-winter-crossing.epub",
     "A brother and sister cross the hills before the snow closes the pass."),
]

def write_audiobooks():
    for ident, title, author, summary, tracks in AUDIOBOOKS:
        slug = ident.rsplit(":", 1)[1]
        order, total = [], 0.0
        for n, (name, notes) in enumerate(tracks, 1):
            file = f"{slug}-{n}.wav"
            duration = chimes(HERE / "audio" / file, notes, 0.6 * len(notes))
            total += duration
            order.append({"href": file, "type": "audio/wav", "duration": round(duration, 3), "title": name})
        manifest = {
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": {"@type": "http://schema.org/Audiobook", "identifier": ident, "title": title, "author": author,
                         "language": "en", "duration": round(total, 3)},
            "links": [{"rel": "self", "href": f"{slug}.json", "type": "application/audiobook+json"}],
            "readingOrder": order,
            "toc": [{"href": t["href"], "title": t["title"]} for t in order],
        }
        (HERE / "audio" / f"{slug}.json").write_text(json.dumps(manifest, indent=2) + "\n")

def entry(ident, title, author, summary, href, type_, audio):
    kind = "http://bib.schema.org/Audiobook" if audio else "http://schema.org/EBook"
    return f"""  <entry schema:additionalType="{kind}">
    <id>{html.escape(ident)}</id>
    <title>{html.escape(title)}</title>
    <author><name>{html.escape(author)}</name></author>
    <summary type="text">{html.escape(summary)}</summary>
    <dcterms:language>en</dcterms:language>
    <dcterms:publisher>shelf samples</dcterms:publisher>
    <updated>2026-01-01T00:00:00Z</updated>
    <link rel="http://opds-spec.org/acquisition/open-access" type="{type_}" href="{href}"/>
  </entry>
"""

ACTIVE = ' opds:activeFacet="true"'

def feed(name, title, active, entries):
    tabs = "".join(
        f'  <link rel="http://opds-spec.org/facet" href="{href}?entrypoint={value}" title="{label}" opds:facetGroup="Formats"'
        f' simplified:facetGroupType="http://librarysimplified.org/terms/rel/entrypoint"'
        f'{ACTIVE if value == active else ""}/>\n'
        for href, value, label in [("catalog.xml", "All", "All"), ("ebooks.xml", "Book", "eBooks"), ("audiobooks.xml", "Audio", "Audiobooks")])
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- shelf's bundled sample library (samples/library/make-library.py writes it; CC0). -->
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog"
      xmlns:simplified="http://librarysimplified.org/terms/" xmlns:schema="http://schema.org/"
      xmlns:dcterms="http://purl.org/dc/terms/">
  <id>urn:shelf:sample-library:{name}</id>
  <title>{title}</title>
  <updated>2026-01-01T00:00:00Z</updated>
  <link rel="self" href="{name}.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/>
  <link rel="start" href="catalog.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/>
{tabs}{"".join(entries)}</feed>
"""

def main():
    write_audiobooks()
    ebooks = [entry(i, t, a, s, f"../{f}", "application/epub+zip", False) for i, t, a, f, s in EBOOKS]
    audio = [entry(i, t, a, s, f"audio/{i.rsplit(':', 1)[1]}.json", "application/audiobook+json", True)
             for i, t, a, s, _ in AUDIOBOOKS]
    (HERE / "catalog.xml").write_text(feed("catalog", "Shelf Sample Library", "All", ebooks + audio))
    (HERE / "ebooks.xml").write_text(feed("ebooks", "Shelf Sample Library", "Book", ebooks))
    (HERE / "audiobooks.xml").write_text(feed("audiobooks", "Shelf Sample Library", "Audio", audio))

if __name__ == "__main__":
    main()
