// Listening, inside a book's page: the sentence the host is reading aloud highlighted, and the page turned to it
// when it starts on another (the app's listen.js says which sentence, by its words and where in the chapter).
// The chapter's text is indexed once (a sentence a second would otherwise walk the whole chapter each time).

const NAME = 'shelf-spoken';
let index = null;

// The page's text with white space as the host writes it (single spaces), lower case, and where each character is.
function textIndex() {
  if (index && index.body === document.body) return index;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const chars = [];
  const map = [];
  let space = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent?.closest('script, style')) continue;
    const value = node.nodeValue ?? '';
    for (let i = 0; i < value.length; i++) {
      const c = value[i];
      if (/\s/.test(c)) {
        if (space || !chars.length) continue;
        space = true;
        chars.push(' ');
      } else {
        space = false;
        chars.push(c.toLowerCase());
      }
      map.push([node, i]);
    }
  }
  index = { body: document.body, flat: chars.join(''), map };
  return index;
}

// The sentence's words in the page, the occurrence nearest to `progression` when there are several; a sentence
// the page does not hold whole (a page number inside it, which is not read) is found by its first words.
function rangeOf(text, progression) {
  const { flat, map } = textIndex();
  const whole = text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (!whole) return null;
  const expected = progression * flat.length;
  for (const wanted of [whole, whole.split(' ').slice(0, 6).join(' ')]) {
    let best = -1, distance = Infinity;
    for (let at = flat.indexOf(wanted); at !== -1; at = flat.indexOf(wanted, at + 1)) {
      if (Math.abs(at - expected) < distance) { best = at; distance = Math.abs(at - expected); }
    }
    if (best < 0) continue;
    const last = Math.min(map.length - 1, best + whole.length - 1);
    const range = document.createRange();
    range.setStart(map[best][0], map[best][1]);
    range.setEnd(map[last][0], map[last][1] + 1);
    return range;
  }
  return null;
}

function style() {
  if (document.getElementById('shelf-listen-style')) return;
  const root = document.documentElement;
  const element = document.createElementNS(root.namespaceURI ?? 'http://www.w3.org/1999/xhtml', 'style');
  element.id = 'shelf-listen-style';
  element.textContent = `::highlight(${NAME}) { background-color: #b9dcff; color: #111; }`;
  (document.head ?? root).append(element);
}

/** Highlights the sentence `text` (none when empty) and shows its page; answers the words highlighted. */
export function speak(page, text, progression = 0) {
  // The CSS Custom Highlight API (Chromium 105), newer than the type checker's DOM library.
  const highlights = /** @type {any} */ (window.CSS)?.highlights;
  const Highlight = /** @type {any} */ (window).Highlight;
  const range = text ? rangeOf(text, progression) : null;
  if (!range || !highlights || !Highlight) {
    highlights?.delete(NAME);
    return null;
  }
  style();
  highlights.set(NAME, new Highlight(range));
  if (page.scrolled) {
    const rect = range.getBoundingClientRect();
    const outside = page.vertical ? rect.left < 0 || rect.right > page.width : rect.top < 0 || rect.bottom > page.height;
    if (outside) page.showRange(range);
  } else if (page.width && page.pageOfRange(range) !== page.page) {
    // (A fixed-layout page is drawn whole and never laid out in pages: it has no width of a page, nothing to turn.)
    page.show(page.pageOfRange(range));
  }
  return range.toString();
}
