"""The peer for bench/epub/run.sh: the same work with ebooklib (+ lxml for text), in one process."""
import sys, time, resource, warnings
warnings.filterwarnings("ignore")
import ebooklib
from ebooklib import epub
from lxml import html as lhtml

def maxrss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

def book_text(b):
    for idref, _ in b.spine:
        item = b.get_item_with_id(idref)
        if item is None or item.get_type() != ebooklib.ITEM_DOCUMENT:
            continue
        try:
            yield lhtml.fromstring(item.get_content()).text_content()
        except Exception:
            yield ""

mode = sys.argv[1]
t0 = time.monotonic()
if mode in ("open", "info", "extract"):
    opened = items = size = 0
    for path in sys.argv[2:]:
        try:
            b = epub.read_epub(path, {"ignore_ncx": False})
        except Exception as e:
            print(f"{path}: {e}", file=sys.stderr)
            continue
        opened += 1
        title = b.get_metadata("DC", "title"); toc = b.toc; spine = b.spine
        if mode == "info":
            print(title, len(toc), len(spine))
        if mode == "extract":
            for t in book_text(b):
                items += 1; size += len(t.encode())
    print(f"{mode}: {opened}/{len(sys.argv) - 2} books, {items} items, {size} bytes out, {time.monotonic() - t0:.4f} s, maxrss {maxrss()} KB")
elif mode == "search":
    q, path = sys.argv[2].lower(), sys.argv[3]
    b = epub.read_epub(path)
    hits = sum(t.lower().count(q) for t in book_text(b))
    print(f"search: {hits} hits, {time.monotonic() - t0:.4f} s, maxrss {maxrss()} KB")
