"""A small narrated book (EPUB 3 media overlays) made by the browser tests: text with ids, SMIL files, and audio
spoken by eSpeak NG (`espeak-ng`) and encoded by `ffmpeg` as MP3, Ogg Vorbis and WAV, so that the reader plays
each kind. Each phrase's clip is where its sound is in the file it was put in (the WAV frames counted), so a test
knows which phrase is heard at any time of the audio element.

Chapter one ("one.xhtml", one.mp3): a heading and two short paragraphs, prose without narration over some pages,
then three phrases on a later page, the middle one a page number (`epub:type="pagebreak"`, skippable) that
begins a section the contents lists ("The Gulls", one.xhtml#gulls: an entry inside a chapter).
Between them an interlude with no narration ("interlude.xhtml": a partly narrated book). Chapter two ("two.xhtml",
two.ogg and table.wav): a heading, a paragraph, a table read row by row (a `seq` of
`epub:type="table"`, escapable) from another file, and a paragraph after it."""

import io
import os
import subprocess
import tempfile
import wave

from epub_fixtures import prose
from epub3_fixtures import XHTML, nav, package, write, xhtml

TOOLS = ("/usr/bin/espeak-ng", "/usr/bin/ffmpeg")

ONE = [("c1-1", "Chapter One"), ("c1-2", "The keeper climbed the stair at dusk."),
       ("c1-3", "He lit the lamp and watched the ships.")]
ONE_LATE = [("c1-4", "Morning came grey over the harbour."), ("c1-5", "Page twelve."),
            ("c1-6", "The gulls called from the rocks.")]
TWO = [("c2-1", "Chapter Two"), ("c2-2", "The tide tables hung by the door.")]
ROWS = [("r1", "High water, six in the morning."), ("r2", "Low water, noon."), ("r3", "High water, six at night.")]
# Longer than a quote (in-book-place.js): the place saved while it plays quotes its first words only.
AFTER = [("c2-3", "He wrote the times in the log, the height of each tide and the wind with its quarter, and the names "
                  "of the ships that passed the point before the lamp was lit.")]


def available():
    return all(os.path.exists(tool) for tool in TOOLS)


def speak(text):
    """One phrase spoken by eSpeak NG: its 16-bit mono frames and their rate."""
    wav = subprocess.run(["espeak-ng", "-v", "en", "-s", "190", "--stdout", text], check=True, capture_output=True).stdout
    with wave.open(io.BytesIO(wav)) as spoken:
        return spoken.readframes(spoken.getnframes()), spoken.getframerate()


def record(phrases, gap=0.25):
    """The phrases one after the other (a short silence after each): the WAV bytes and each phrase's clip."""
    frames, clips, rate = b"", [], 22050
    for id_, text in phrases:
        sound, rate = speak(text)
        begin = len(frames) // 2 / rate
        frames += sound + b"\0\0" * int(gap * rate)
        clips.append((id_, begin, len(frames) // 2 / rate))
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(frames)
    return out.getvalue(), clips


def encode(wav, suffix):
    """WAV bytes as another kind of audio (ffmpeg picks the codec by the name: .mp3 MP3, .ogg Vorbis)."""
    with tempfile.TemporaryDirectory() as folder:
        source, target = os.path.join(folder, "in.wav"), os.path.join(folder, "out" + suffix)
        with open(source, "wb") as f:
            f.write(wav)
        codec = ["-c:a", "libvorbis"] if suffix == ".ogg" else ["-c:a", "libmp3lame", "-b:a", "64k"]
        subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", source, *codec, target], check=True)
        with open(target, "rb") as f:
            return f.read()


def clock(seconds):
    return f"{seconds:.3f}s"


def par(chapter, audio, clip, kind=""):
    id_, begin, end = clip
    type_ = f' epub:type="{kind}"' if kind else ""
    return (f'<par id="p-{id_}"{type_}><text src="{chapter}#{id_}"/>'
            f'<audio src="audio/{audio}" clipBegin="{clock(begin)}" clipEnd="{clock(end)}"/></par>')


def smil(body):
    return ('<?xml version="1.0" encoding="utf-8"?>\n<smil xmlns="http://www.w3.org/ns/SMIL" '
            f'xmlns:epub="http://www.idpf.org/2007/ops" version="3.0"><body>{body}</body></smil>')


def narrated(path):
    """The narrated book; answers the clips by phrase id: (audio href, begin, end), as the manifest gives them."""
    one_wav, one_clips = record(ONE + ONE_LATE)
    two_wav, two_clips = record(TWO + AFTER)
    table_wav, table_clips = record(ROWS)
    filler = "".join(f"<p>{prose(5000 + n, 4)}</p>" for n in range(24))
    one_body = (f'<h1 id="c1-1">Chapter One</h1><p id="c1-2">{ONE[1][1]}</p><p id="c1-3">{ONE[2][1]}</p>{filler}'
                f'<p id="c1-4">{ONE_LATE[0][1]}</p>'
                f'<section id="gulls"><p><span id="c1-5" epub:type="pagebreak" role="doc-pagebreak" aria-label="Page 12">12</span></p>'
                f'<p id="c1-6">{ONE_LATE[2][1]}</p></section>')
    rows = "".join(f'<tr id="{id_}"><td>{text}</td></tr>' for id_, text in ROWS)
    two_body = (f'<h1 id="c2-1">Chapter Two</h1><p id="c2-2">{TWO[1][1]}</p>'
                f'<table id="tides"><caption>Tides</caption><tbody>{rows}</tbody></table><p id="c2-3">{AFTER[0][1]}</p>')
    one_smil = smil("".join(par("../one.xhtml", "one.mp3", c, "pagebreak" if c[0] == "c1-5" else "") for c in one_clips)
                    .replace('"audio/', '"../audio/'))
    two_pars = [par("../two.xhtml", "two.ogg", c) for c in two_clips]
    table = (f'<seq id="tides-seq" epub:type="table" epub:textref="../two.xhtml#tides">'
             + "".join(par("../two.xhtml", "table.wav", c, "table-row") for c in table_clips) + "</seq>")
    two_smil = smil((two_pars[0] + two_pars[1] + table + two_pars[2]).replace('"audio/', '"../audio/'))
    # The book's own class for the phrase playing (its `media:active-class`), as publishers style it, and for the
    # page while its narration plays (`media:playback-active-class`): the rest of the text dimmed.
    css = ("p { margin: 0 0 .4em; } table { border-collapse: collapse; } td { padding: .2em .5em; }"
           " .narrated-now { background-color: #ffe08a; color: #000; } .narration-playing body { color: #444; }")
    files = {
        "OEBPS/style.css": css,
        "OEBPS/nav.xhtml": nav([("Chapter One", "one.xhtml"), ("The Gulls", "one.xhtml#gulls"), ("Interlude", "interlude.xhtml"),
                                ("Chapter Two", "two.xhtml")]),
        # A part with no narration of its own (a partly narrated book): the narration passes over it.
        "OEBPS/interlude.xhtml": xhtml("Interlude", "<h1>Interlude</h1><p>A letter, unread, in a drawer of the keeper's desk.</p>"),
        "OEBPS/one.xhtml": xhtml("Chapter One", one_body, head='<link rel="stylesheet" href="style.css"/>'),
        "OEBPS/two.xhtml": xhtml("Chapter Two", two_body, head='<link rel="stylesheet" href="style.css"/>'),
        "OEBPS/smil/one.smil": one_smil,
        "OEBPS/smil/two.smil": two_smil,
        "OEBPS/audio/one.mp3": encode(one_wav, ".mp3"),
        "OEBPS/audio/two.ogg": encode(two_wav, ".ogg"),
        "OEBPS/audio/table.wav": table_wav,
    }
    durations = {"one": one_clips[-1][2], "two": two_clips[-1][2] + table_clips[-1][2]}
    metadata = (f'<meta property="media:duration" refines="#one-smil">{clock(durations["one"])}</meta>'
                f'<meta property="media:duration" refines="#two-smil">{clock(durations["two"])}</meta>'
                f'<meta property="media:duration">{clock(durations["one"] + durations["two"])}</meta>'
                '<meta property="media:active-class">narrated-now</meta>'
                '<meta property="media:playback-active-class">narration-playing</meta><dc:creator>Maren Holt</dc:creator>')
    items = [("nav", "nav.xhtml", XHTML, ' properties="nav"'), ("css", "style.css", "text/css", ""),
             ("one", "one.xhtml", XHTML, ' media-overlay="one-smil"'), ("interlude", "interlude.xhtml", XHTML, ""),
             ("two", "two.xhtml", XHTML, ' media-overlay="two-smil"'),
             ("one-smil", "smil/one.smil", "application/smil+xml", ""),
             ("two-smil", "smil/two.smil", "application/smil+xml", ""),
             ("one-audio", "audio/one.mp3", "audio/mpeg", ""), ("two-audio", "audio/two.ogg", "audio/ogg", ""),
             ("table-audio", "audio/table.wav", "audio/wav", "")]
    opf = package("urn:uuid:0b1e5c1a-0000-4000-8000-000000000040", "The Narrated Fixture", "en", items, ["one", "interlude", "two"],
                  metadata=metadata)
    files["OEBPS/package.opf"] = opf
    write(path, files)
    return {id_: (f"audio/{audio}", begin, end) for audio, clips in (("one.mp3", one_clips), ("two.ogg", two_clips), ("table.wav", table_clips))
            for id_, begin, end in clips}
