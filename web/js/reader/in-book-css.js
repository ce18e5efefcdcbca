// What the browser does not draw of the CSS EPUB allows, drawn in the book's page (in-book.js calls it): text set
// in full-width forms (`-epub-text-transform: fullwidth`, CSS `text-transform: full-width`), which Chromium does
// not know. The server writes each prefixed declaration as the standard one too (Sources/Web/Reader/PrefixedCSS),
// and marks full-width text with the inherited custom property `--shelf-full-width`, which this reads.

const done = new WeakSet();

/** Changes the printable ASCII of every text marked full-width into its full-width form (U+FF01…U+FF5E). */
export function drawFullWidth(doc) {
  if (!doc.body || done.has(doc)) return;
  done.add(doc);
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  const marked = new Map();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent) continue;
    if (!marked.has(parent)) marked.set(parent, getComputedStyle(parent).getPropertyValue('--shelf-full-width').trim() === '1');
    if (!marked.get(parent)) continue;
    node.nodeValue = (node.nodeValue ?? '').replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).replace(/ /g, '\u3000');
  }
}
