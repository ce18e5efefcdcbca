// Where the screen shown starts, in words: the first words visible in the book's page and the words just before
// them (Readium's locator `text`: highlight and before). The app saves them with the place and the bookmarks, so
// that the place lands on the same words at another width, in `shelf read` (which finds them on its own pages)
// and on another device, and a bookmark returns to the screen it was made on. Runs in the book's page (in-book.js).

// One rule for every quote the reader saves with a place (the screen's first words here, the phrase a narration
// plays in in-book-narration.js): at most QUOTE characters, cut after a whole word. The host finds a quote again by
// its first 64 letters (TextQuote.matchLetters in ShelfReader) and makes its own quotes 120 characters long
// (TextQuote.highlightLength): a longer quote finds nothing more, and a place saved by the browser looks like one
// saved by `shelf read`.
const QUOTE = 120;
const BEFORE = 60;

/** Text nodes of the body that hold words, in document order (not those of scripts and styles). */
function textNodes() {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (/\S/.test(node.nodeValue ?? '') && !node.parentElement?.closest('script, style, template')
      ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(/** @type {Text} */ (node));
  return nodes;
}

/** What of the page is on the screen: the window, or the part a shared scroll shows of a frame as tall as its text. */
let visible = { top: 0, height: 0 };

/** Whether a box is on the screen: its middle inside what is visible. */
function onScreen(rect) {
  const x = (rect.left + rect.right) / 2, y = (rect.top + rect.bottom) / 2;
  return rect.width + rect.height > 0 && x >= 0 && x < innerWidth && y >= visible.top && y < visible.top + visible.height;
}

const squeeze = (text) => text.replace(/\s+/g, ' ');

/**
 * The first words on the screen, or null when it shows none (an image alone).
 * @param {{top: number, height: number}} [shown] the part of the page on the screen, in pixels from the window's top
 *   (a frame in one shared scroll, continuous.js), else the window
 * @returns {{highlight: string, before?: string} | null}
 */
export function screenWords(shown) {
  if (!document.body) return null;
  visible = shown && Number.isFinite(shown.top) && Number.isFinite(shown.height) ? shown : { top: 0, height: innerHeight };
  const nodes = textNodes();
  const range = document.createRange();
  for (const [index, node] of nodes.entries()) {
    range.selectNodeContents(node);
    if (![...range.getClientRects()].some(onScreen)) continue;
    const value = node.nodeValue ?? '';
    // Characters run in reading order, screen after screen: the first one on this screen starts it.
    let start = 0;
    for (; start < value.length; start++) {
      if (/\s/.test(value[start])) continue;
      range.setStart(node, start);
      range.setEnd(node, start + 1);
      if ([...range.getClientRects()].some(onScreen)) break;
    }
    if (start >= value.length) continue;
    let highlight = squeeze(value.slice(start));
    for (let next = index + 1; highlight.length < QUOTE && next < nodes.length; next++) highlight += squeeze(' ' + nodes[next].nodeValue);
    let before = squeeze(value.slice(0, start));
    for (let previous = index - 1; before.length < BEFORE && previous >= 0; previous--) before = squeeze(nodes[previous].nodeValue + ' ') + before;
    before = cut(before.trim(), BEFORE, true);
    return before ? { highlight: quote(highlight), before } : { highlight: quote(highlight) };
  }
  return null;
}

/**
 * The quote saved for some words (a place's `text.highlight`): white space made single, at most QUOTE characters,
 * whole words where it can.
 * @param {string} text  @returns {string}
 */
export function quote(text) { return cut(squeeze(text).trim(), QUOTE, false); }

/** At most `limit` characters of `text`, whole words where it can: its start, or its end (`end`). */
function cut(text, limit, end) {
  if (text.length <= limit) return text;
  const part = end ? text.slice(text.length - limit) : text.slice(0, limit);
  const space = end ? part.indexOf(' ') : part.lastIndexOf(' ');
  if (space < 0 || (end ? space : limit - space) > limit / 2) return part;
  return end ? part.slice(space + 1) : part.slice(0, space);
}
