"""An audiobook made by the player's browser tests: an .audiobook package (a Readium audiobook manifest and its
WAV tracks in one zip) with three chapters over two tracks of tones, so that the tests need no corpus and no
encoder."""

import io
import json
import math
import os
import struct
import wave
import zipfile

RATE = 8000


def tone(seconds, pitch):
    """A quiet sine tone as 16-bit mono WAV bytes."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        frames = bytearray()
        for n in range(int(seconds * RATE)):
            frames += struct.pack("<h", int(3000 * math.sin(2 * math.pi * pitch * n / RATE)))
        w.writeframes(bytes(frames))
    return out.getvalue()


def manifest(seconds=(60, 60), title="The Harbour Bells Fixture"):
    tracks = [{"href": f"track{i + 1}.wav", "type": "audio/wav", "duration": s, "title": f"Part {i + 1}"} for i, s in enumerate(seconds)]
    manifest = {
        "@context": "https://readium.org/webpub-manifest/context.jsonld",
        "metadata": {"@type": "http://schema.org/Audiobook", "conformsTo": "https://readium.org/webpub-manifest/profiles/audiobook",
                     "identifier": "urn:uuid:0b1e5c1a-0000-4000-8000-0000000000a1", "title": title, "author": "Maren Holt",
                     "language": "en", "duration": sum(seconds)},
        "links": [{"rel": "self", "href": "manifest.json", "type": "application/audiobook+json"}],
        "readingOrder": tracks,
        "toc": [{"href": "track1.wav#t=0", "title": "The Quay"}, {"href": "track1.wav#t=30", "title": "The Bell Tower"},
                {"href": "track2.wav#t=0", "title": "The Crossing"}],
    }
    return manifest


def audiobook(path, seconds=(60, 60), title="The Harbour Bells Fixture"):
    manifest = globals()["manifest"](seconds, title)
    with zipfile.ZipFile(path, "w") as package:
        package.writestr("manifest.json", json.dumps(manifest))
        for i, s in enumerate(seconds):
            package.writestr(f"track{i + 1}.wav", tone(s, 330 + 110 * i), compress_type=zipfile.ZIP_STORED)


def audiobook_folder(folder, missing=(), seconds=(60, 60)):
    """The same book as a folder (manifest.json beside its tracks), without the tracks numbered in `missing`; returns
    the manifest's path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "manifest.json")
    with open(path, "w") as out:
        json.dump(manifest(seconds), out)
    for i, s in enumerate(seconds):
        if i + 1 not in missing:
            with open(os.path.join(folder, f"track{i + 1}.wav"), "wb") as out:
                out.write(tone(s, 330 + 110 * i))
    return path
