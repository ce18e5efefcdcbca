// Note references in a book's page (EPUB 3 structural semantics: `epub:type="noteref"`, or the ARIA role
// `doc-noteref`): the words of the note they point to, found in this page or fetched from another of the book (the
// book's origin serves it), for the app to show in a pop-up. Text only: the app never takes a book's markup.

const OPS = 'http://www.idpf.org/2007/ops';

/** Whether `link` refers to a note. */
export function isNoteReference(link) {
  const types = `${link.getAttributeNS(OPS, 'type') ?? ''} ${link.getAttribute('epub:type') ?? ''}`.split(/\s+/);
  return types.includes('noteref') || (link.getAttribute('role') ?? '').split(/\s+/).includes('doc-noteref');
}

/** The words of the note `url` names (its fragment's element), or null when there is none to show. */
export async function noteText(url) {
  const id = decodeURIComponent(url.hash.slice(1));
  if (!id) return null;
  const here = url.href.split('#')[0] === location.href.split('#')[0];
  let doc = document;
  if (!here) {
    try {
      const answer = await fetch(url.href.split('#')[0]);
      if (!answer.ok) return null;
      const type = (answer.headers.get('content-type') ?? '').includes('xhtml') ? 'application/xhtml+xml' : 'text/html';
      doc = new DOMParser().parseFromString(await answer.text(), type);
    } catch { return null; }
  }
  const note = doc.getElementById(id);
  if (!note) return null;
  // The note's own back link (↩, "1.") is not part of what it says.
  const copy = /** @type {Element} */ (note.cloneNode(true));
  for (const back of copy.querySelectorAll('a[href]')) if (/^[\s↩︎⮌↑^\d.\[\]]*$/u.test(back.textContent ?? '')) back.remove();
  const text = blockText(copy).replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n').trim();
  return text || null;
}

// Text with a line break between blocks (paragraphs of a note stay paragraphs in the pop-up).
function blockText(element) {
  let out = '';
  for (const node of element.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) out += (node.nodeValue ?? '').replace(/\s+/g, ' ');
    else if (node.nodeType === Node.ELEMENT_NODE) {
      const block = /^(p|div|li|blockquote|aside|section|h[1-6]|br)$/i.test(/** @type {Element} */ (node).localName);
      out += (block ? '\n' : '') + blockText(node) + (block ? '\n' : '');
    }
  }
  return out;
}
