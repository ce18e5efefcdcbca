// A narrated book (EPUB 3 media overlays), inside a book's page: the phrase the narration plays carries the book's
// `media:active-class` (else the reader's own class), and its page is shown when it starts on another. While the
// Listen bar is open the narrated phrases can be chosen: a tap, or Enter on a phrase reached with Tab, tells the
// app (narration.js), which plays from there. The app says which elements are phrases (the clips' fragments).
// While the narration plays, the document element carries the book's `media:playback-active-class` (Media
// Overlays 3.3, "Playback active class"), so that the book's own style can tell a page being read aloud.

import { quote } from './in-book-place.js';

const READER_CLASS = 'shelf-narrating';
const MARK = 'data-shelf-phrase';

/** @type {Map<string, Element>} the phrases of this page, by id */
const phrases = new Map();
/** @type {Element | null} */
let active = null;
/** @type {string[]} */
let activeClasses = [READER_CLASS];
/** @type {string[]} the book's playback-active class, on the document element while the narration plays */
let playbackClasses = [];

function style() {
  if (document.getElementById('shelf-narration-style')) return;
  const root = document.documentElement;
  const element = document.createElementNS(root.namespaceURI ?? 'http://www.w3.org/1999/xhtml', 'style');
  element.id = 'shelf-narration-style';
  element.textContent = `.${READER_CLASS} { background-color: #b9dcff !important; color: #111 !important; border-radius: .15em; }
[${MARK}] { cursor: pointer; }
[${MARK}]:focus-visible { outline: 2px solid #1a5fb4; outline-offset: 2px; }`;
  (document.head ?? root).append(element);
}

// A phrase is made focusable unless it is already (a link, a control, an element the book gave a tabindex).
function prepare(element) {
  element.setAttribute(MARK, element.hasAttribute('tabindex') || element.matches('a[href], button, input, select, textarea') ? 'own' : '');
  if (element.getAttribute(MARK) === '') element.setAttribute('tabindex', '0');
}

function restore(element) {
  if (element.getAttribute(MARK) === '') element.removeAttribute('tabindex');
  element.removeAttribute(MARK);
}

// Whether an element is (at least partly) in the page shown; `edge`: one touching it counts (an empty anchor
// at the page's left edge has no width to be inside it).
function shown(element, page, edge = false) {
  const rect = element.getBoundingClientRect();
  const width = page.width || innerWidth, height = page.height || innerHeight;
  if (edge) return rect.right >= 0 && rect.bottom >= 0 && rect.left < width && rect.top < height;
  return rect.right > 0 && rect.bottom > 0 && rect.left < width && rect.top < height;
}

/**
 * The first of `ids` (in their order, the narration's) at or after the element `target`: the phrase that is it,
 * holds it, lies inside it or comes after it; a phrase wholly before it does not. '' when there is none; null when
 * the target is not in the page, or (`onScreen`) not in the page shown (the patron has read on since going there).
 */
function firstFrom(ids, target, page, onScreen) {
  const element = document.getElementById(target);
  if (!element || (onScreen && !shown(element, page, true))) return null;
  const before = Node.DOCUMENT_POSITION_FOLLOWING | Node.DOCUMENT_POSITION_CONTAINED_BY;
  return ids.find((id) => {
    const phrase = phrases.get(id);
    return phrase && (phrase.compareDocumentPosition(element) & before) !== Node.DOCUMENT_POSITION_FOLLOWING;
  }) ?? '';
}

// The book's playback-active class on the document element while the narration plays (`classes` empty: not).
function playback(classes) {
  const root = document.documentElement;
  root.classList.remove(...playbackClasses.filter((c) => !classes.includes(c)));
  if (classes.length) root.classList.add(...classes);
  playbackClasses = classes;
}

/**
 * The app's `narrate` message: `ids` the narrated phrases of this page (none: listening ended), `active` the one
 * playing (or none), `activeClass` the book's class for it, `playing` whether the narration plays and
 * `playbackClass` the book's class for the page then, `follow` whether to show its page; `first` to answer the
 * first phrase on the page shown, `from` (an element's id) the first phrase at or after it (`onScreen`: only when
 * that element is on the page shown). Answers the id asked for, else the active phrase's words (quote's cut).
 * @param {any} page in-book.js's page  @param {any} message
 */
export function narrate(page, message) {
  const ids = Array.isArray(message.ids) ? message.ids.map(String) : [];
  const wanted = new Set(ids);
  for (const [id, element] of phrases) {
    if (!wanted.has(id)) { restore(element); phrases.delete(id); }
  }
  for (const id of ids) {
    const element = phrases.has(id) ? null : document.getElementById(id);
    if (element) { prepare(element); phrases.set(id, element); }
  }
  if (ids.length) style();
  if (message.first) return ids.find((id) => phrases.has(id) && shown(/** @type {Element} */ (phrases.get(id)), page)) ?? null;
  if (message.from) return firstFrom(ids, String(message.from), page, !!message.onScreen);
  // Playback is active in the page whose phrase plays, while it plays (the spread's other page is not read).
  playback(ids.length && message.playing && message.active ? String(message.playbackClass ?? '').split(/\s+/).filter(Boolean) : []);
  const element = message.active ? phrases.get(String(message.active)) ?? null : null;
  const classes = String(message.activeClass || READER_CLASS).split(/\s+/).filter(Boolean);
  if (active && (active !== element || classes.join(' ') !== activeClasses.join(' '))) active.classList.remove(...activeClasses);
  activeClasses = classes;
  active = element;
  if (!element) return null;
  element.classList.add(...classes);
  if (message.follow && page.settings) {
    const range = document.createRange();
    range.selectNodeContents(element);
    if (page.scrolled ? !shown(element, page) : page.pageOfRange(range) !== page.page) page.showRange(range);
  }
  return quote(element.textContent ?? '');
}

/** Hears a tap or Enter on a phrase; `tell` sends the app a message. @param {(message: object) => void} tell */
export function hearPhrases(tell) {
  const phraseOf = (target) => {
    const element = /** @type {Element | null} */ (target)?.closest?.(`[${MARK}]`);
    return element && !/** @type {Element} */ (target).closest('a[href]') ? element : null;
  };
  document.addEventListener('click', (event) => {
    const element = phraseOf(event.target);
    if (element && !event.defaultPrevented) tell({ shelf: 'phrase', id: element.id });
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey) return;
    const element = phraseOf(event.target);
    if (!element || element !== event.target) return;
    event.preventDefault();
    tell({ shelf: 'phrase', id: element.id });
  });
}
