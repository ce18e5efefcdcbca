// The reader's own script inside a book's page. The page is in the book's origin (or, with --listen, an opaque
// one), which the app's page cannot reach into, so the reader's work on the page is done here: its styles, the
// pages (CSS columns one page wide, or one scrolled column), finding a fragment or words, the highlight, the
// selection, and hearing the patron's keys, links, swipes and double taps. It talks to the app by messages (the
// protocol is in docs/web.md): the app asks, this answers with the page's state. The server puts this script first
// in the page with a nonce; it is the only script that runs there unless the patron let the book run its own.

import { frameCSS } from './frame-style.js';
import { drawFullWidth } from './in-book-css.js';
import { fitPictures } from './in-book-images.js';
import { isNoteReference, noteText } from './in-book-notes.js';
import { isRTLLanguage } from './progression.js';
import { speak } from './in-book-listen.js';
import { narrate, hearPhrases } from './in-book-narration.js';
import { screenWords } from './in-book-place.js';

const app = window.parent;
// Only a page the reader shows: not a page the book frames inside its own, nor one opened on its own.
const shown = app !== window && app === window.top;

const page = {
  settings: null,
  language: '',
  page: 0,
  pages: 1,
  width: 0,
  height: 0,
  vertical: false,
  rtl: false,
  scrolled: false,
  fragments: [],

  get scroller() { return document.scrollingElement ?? document.documentElement; },

  layout(settings, language) {
    if (settings) this.settings = settings;
    if (language !== undefined) this.language = language;
    const root = document.documentElement;
    if (!root || !this.settings) return;
    drawFullWidth(document);
    // The writing mode must be the root's for the columns to run along it (publishers often set it on body).
    const bodyMode = document.body ? getComputedStyle(document.body).writingMode : 'horizontal-tb';
    if (bodyMode.startsWith('vertical') || bodyMode.startsWith('sideways')) root.style.setProperty('writing-mode', bodyMode, 'important');
    // A page that says no language is in the book's: hyphenation (`hyphens: auto`) breaks words by its rules.
    const own = root.getAttribute('lang') || root.getAttributeNS('http://www.w3.org/XML/1998/namespace', 'lang');
    if (!own && this.language && this.settings.hyphens === 'on') root.setAttribute('lang', this.language);
    // A page that sets no direction follows its language, or the book's (Readium CSS does the same).
    if (!root.hasAttribute('dir') && !document.body?.hasAttribute('dir') && isRTLLanguage(root.getAttribute('lang') || root.getAttributeNS('http://www.w3.org/XML/1998/namespace', 'lang') || this.language)) root.setAttribute('dir', 'rtl');
    const mode = getComputedStyle(root).writingMode;
    this.vertical = mode.startsWith('vertical') || mode.startsWith('sideways');
    this.rtl = getComputedStyle(document.body ?? root).direction === 'rtl';
    this.width = window.innerWidth;
    this.height = window.innerHeight;
    this.scrolled = this.settings.flow === 'scrolled';
    let style = /** @type {Element | null} */ (document.getElementById('shelf-reader-style'));
    if (!style) {
      style = document.createElementNS(root.namespaceURI ?? 'http://www.w3.org/1999/xhtml', 'style');
      style.id = 'shelf-reader-style';
      (document.head ?? root).append(style);
    }
    style.textContent = frameCSS(this.settings, { width: this.width, height: this.height, vertical: this.vertical, flow: this.settings.flow }, this.language);
    void root.offsetHeight;
    if (this.scrolled) {
      this.pages = 1;
      this.followExtent();
      return;
    }
    if (!this.vertical) fitPictures(document, this.height);
    const s = this.scroller;
    const length = this.vertical ? s.scrollHeight : s.scrollWidth;
    const stride = this.vertical ? this.height : this.width;
    this.pages = Math.max(1, Math.round(length / stride));
  },

  // The height of the chapter's text, for a frame as tall as it (chapters that follow each other as one scroll,
  // continuous.js); told again whenever it changes (a picture loaded, a font came).
  get extent() { return Math.ceil(Math.max(this.scroller.scrollHeight, document.body?.scrollHeight ?? 0)); },

  followExtent() {
    if (!this.settings?.shared || this.extentObserver || !document.body) return;
    let told = 0;
    this.extentObserver = new ResizeObserver(() => {
      const extent = this.extent;
      if (extent !== told) tell({ shelf: 'extent', height: (told = extent) });
    });
    this.extentObserver.observe(document.body);
  },

  // Where a place ({fragment} | {text, progression}) is, in pixels from the chapter's top: null when not found.
  offsetOf(place = {}) {
    const range = place.fragment ? this.rangeOfFragment(place.fragment) : place.text ? this.rangeOfText(place.text, place.progression) : null;
    if (!range) return null;
    if (place.text && place.highlight !== false) this.highlight(range);
    return range.getBoundingClientRect().top + this.scroller.scrollTop;
  },

  // How far into the chapter the page shown starts (0…1).
  get progression() {
    if (this.scrolled) {
      const s = this.scroller;
      const range = this.vertical ? s.scrollWidth - this.width : s.scrollHeight - this.height;
      const at = this.vertical ? Math.abs(s.scrollLeft) : s.scrollTop;
      return range > 0 ? Math.min(1, at / range) : 0;
    }
    return this.page / this.pages;
  },

  get atStart() { return this.scrolled ? this.progression <= 0.001 : this.page === 0; },
  get atEnd() { return this.scrolled ? this.progression >= 0.999 : this.page >= this.pages - 1; },
  get verticalRL() { return this.vertical && getComputedStyle(document.documentElement).writingMode !== 'vertical-lr'; },

  go(place = {}) {
    if (place.end) return this.show(this.pages - 1, 1);
    if (place.fragment || place.text) {
      const target = place.fragment ? this.rangeOfFragment(place.fragment) : this.rangeOfText(place.text, place.progression);
      if (target) {
        if (place.text && place.highlight !== false) this.highlight(target);
        return this.showRange(target);
      }
    }
    const progression = place.progression ?? 0;
    if (this.scrolled) return this.scrollTo(progression);
    this.show(Math.min(this.pages - 1, Math.floor(progression * this.pages + 1e-6)));
  },

  show(index, scrolledProgression) {
    if (this.scrolled) return this.scrollTo(scrolledProgression ?? 0);
    this.page = Math.max(0, Math.min(this.pages - 1, index));
    const s = this.scroller;
    if (this.vertical) s.scrollTop = this.page * this.height;
    else s.scrollLeft = (this.rtl ? -1 : 1) * this.page * this.width;
  },

  scrollTo(progression) {
    const s = this.scroller;
    if (this.vertical) s.scrollLeft = (this.verticalRL ? -1 : 1) * (s.scrollWidth - this.width) * progression;
    else s.scrollTop = (s.scrollHeight - this.height) * progression;
  },

  // Turns a page within the chapter; false at its edge (the app then opens the next or previous chapter).
  turn(direction) {
    if (direction > 0 ? this.atEnd : this.atStart) return false;
    if (this.scrolled) {
      // A screen of the scrolled column, less a line so the reader keeps their place.
      const s = this.scroller;
      const line = 2 * 16 * (this.settings.fontScale / 100);
      if (this.vertical) s.scrollLeft += (this.verticalRL ? -1 : 1) * direction * (this.width - line);
      else s.scrollTop += direction * (this.height - line);
      return true;
    }
    this.show(this.page + direction);
    return true;
  },

  // The page of the chapter holding a range.
  pageOfRange(range) {
    const rects = range.getClientRects();
    const rect = rects.length ? rects[0] : range.getBoundingClientRect();
    const s = this.scroller;
    if (this.vertical) return Math.floor((rect.top + s.scrollTop) / this.height);
    const x = rect.left + s.scrollLeft;
    return this.rtl ? Math.floor((this.width - 1 - x) / this.width) : Math.floor(x / this.width);
  },

  showRange(range) {
    if (this.scrolled) {
      const rect = range.getBoundingClientRect();
      if (this.vertical) this.scroller.scrollLeft += rect.left - this.width / 2;
      else this.scroller.scrollTop += rect.top - this.height / 3;
      return;
    }
    this.show(this.pageOfRange(range));
  },

  rangeOfFragment(fragment) {
    const element = document.getElementById(fragment) ?? document.getElementsByName(fragment)[0];
    if (!element) return null;
    const range = document.createRange();
    range.selectNodeContents(element);
    if (!range.getClientRects().length) range.selectNode(element);
    return range;
  },

  // The words `text` in the chapter (white space as the host writes it: single spaces), the occurrence nearest
  // to `progression` when there are several.
  rangeOfText(text, progression = 0) {
    const wanted = text.replace(/\s+/g, ' ').trim().toLowerCase();
    if (!wanted || !document.body) return null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let flat = '';
    /** @type {Array<[Node, number]>} */
    const map = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.nodeValue ?? '';
      for (let i = 0; i < value.length; i++) {
        const c = /\s/.test(value[i]) ? ' ' : value[i].toLowerCase();
        if (c === ' ' && flat.endsWith(' ')) continue;
        flat += c;
        map.push([node, i]);
      }
    }
    let best = -1, bestDistance = Infinity;
    for (let at = flat.indexOf(wanted); at !== -1; at = flat.indexOf(wanted, at + 1)) {
      const distance = Math.abs(at / flat.length - progression);
      if (distance < bestDistance) { best = at; bestDistance = distance; }
    }
    if (best < 0) return null;
    const range = document.createRange();
    const [startNode, startOffset] = map[best];
    const [endNode, endOffset] = map[best + wanted.length - 1];
    range.setStart(startNode, startOffset);
    range.setEnd(endNode, endOffset + 1);
    return range;
  },

  highlight(range) {
    const Highlight = /** @type {any} */ (window).Highlight;
    if (!highlights() || !Highlight) return;
    highlights().set('shelf-hit', new Highlight(range));
  },

  clearHighlight() { highlights()?.delete('shelf-hit'); },

  // The page each table-of-contents fragment of this chapter starts on, for the app to mark where the patron is.
  fragmentPages() {
    const pages = {};
    for (const fragment of this.fragments) {
      const range = this.rangeOfFragment(fragment);
      if (range) pages[fragment] = this.scrolled ? 0 : this.pageOfRange(range);
    }
    return pages;
  },

  state() {
    return {
      page: this.page, pages: this.pages, progression: this.progression, atStart: this.atStart, atEnd: this.atEnd,
      scrolled: this.scrolled, vertical: this.vertical, rtl: this.rtl, fragmentPages: this.fragmentPages(), extent: this.extent,
    };
  },

  // One request of the app; what it answers (besides the state, which every answer carries).
  handle(message) {
    switch (message.shelf) {
      case 'layout':
        this.fragments = message.fragments ?? this.fragments;
        this.layout(message.settings, message.language);
        this.go(message.place ?? { progression: this.progression });
        return null;
      case 'go':
        this.clearHighlight();
        this.fragments = message.fragments ?? this.fragments;
        this.go(message.place);
        return null;
      case 'turn': return this.turn(message.direction);
      case 'clear-highlight': this.clearHighlight(); return null;
      case 'speak': return speak(this, message.text, message.progression);
      case 'narrate': return narrate(this, message);
      case 'selection': return window.getSelection()?.toString().trim() ?? '';
      case 'place': return screenWords(message.visible);
      case 'offset': return this.offsetOf(message.place);
      case 'prefetch':
        // The chapters either side are asked for while the patron reads, so the server has them at hand.
        for (const url of message.urls ?? []) fetch(url, /** @type {RequestInit} */ ({ priority: 'low' })).then((r) => r.arrayBuffer()).catch(() => {});
        return null;
      default: return null;
    }
  },
};

// The CSS Custom Highlight API's registry (Chromium 105), newer than the type checker's DOM library.
/** @returns {Map<string, unknown> | undefined} */
function highlights() { return /** @type {any} */ (window.CSS)?.highlights; }

// The page size a fixed-layout document declares: the viewport meta of XHTML, its first image, or its extent.
// The meta is read as EPUB 3.3 reads it: the first width and the first height count, and `device-width` and
// `device-height` are the screen's.
function declaredSize() {
  const meta = document.querySelector('meta[name=viewport]');
  if (meta) {
    /** @type {Record<string, string>} */
    const values = {};
    for (const part of (meta.getAttribute('content') ?? '').split(/[,;]/)) {
      const [name, value] = part.split('=').map((s) => s.trim().toLowerCase());
      if (name && value !== undefined && !(name in values)) values[name] = value;
    }
    const length = (value, device) => (value === `device-${device}` ? screen[device] : parseFloat(value));
    const width = length(values.width, 'width'), height = length(values.height, 'height');
    if (width > 0 && height > 0) return { width, height };
  }
  const image = document.querySelector('img');
  if (image?.naturalWidth) return { width: image.naturalWidth, height: image.naturalHeight };
  const root = document.documentElement;
  return { width: root?.scrollWidth || 1200, height: root?.scrollHeight || 1600 };
}

function tell(message) { app.postMessage(message, '*'); }

// What the patron does in the page goes to the app: keys that turn pages, links, swipes and double taps.
function listen() {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = /** @type {Element} */ (event.target);
    if (target?.closest?.('input, select, textarea, button, [contenteditable]')) return;
    const keys = ['ArrowLeft', 'ArrowRight', 'PageUp', 'PageDown', ' '];
    // The arrows scroll a scrolled page; in one shared scroll the app's scroller does (the page is not scrolled).
    if (!page.scrolled || page.settings?.shared) keys.push('ArrowUp', 'ArrowDown');
    if (!keys.includes(event.key)) return;
    event.preventDefault();
    tell({ shelf: 'key', key: event.key, shiftKey: event.shiftKey });
  });
  document.addEventListener('click', (event) => {
    const link = /** @type {Element} */ (event.target).closest?.('a[href]');
    if (!link || event.defaultPrevented) return;
    event.preventDefault();
    const href = new URL(link.getAttribute('href') ?? '', document.baseURI);
    if (!isNoteReference(link)) return tell({ shelf: 'link', href: href.href });
    // A note opens in a pop-up; one that cannot be found is followed as a link.
    noteText(href).then((text) => tell(text ? { shelf: 'note', href: href.href, text } : { shelf: 'link', href: href.href }));
  });
  // In one shared scroll (continuous.js) the page, as tall as its text, does not scroll: the wheel scrolls the app's
  // scroller, told by message (a scroll does not pass from a frame of another origin to the page around it).
  document.addEventListener('wheel', (event) => {
    if (!page.settings?.shared || event.ctrlKey) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? innerHeight : 1;
    tell({ shelf: 'wheel', deltaY: event.deltaY * unit });
  }, { passive: false });
  // A page scrolled in a frame of its own in a book whose chapters follow as one scroll (a reflowed page of a
  // fixed-layout book): scrolling on past its end (or above its start) asks the app for the next (or the one before).
  let edgeTold = 0;
  document.addEventListener('wheel', (event) => {
    if (!page.scrolled || !page.settings?.continuous || page.settings.shared || Date.now() - edgeTold < 800) return;
    const delta = page.vertical ? -(event.deltaX || event.deltaY) * (page.verticalRL ? 1 : -1) : event.deltaY;
    const direction = delta > 0 && page.atEnd ? 1 : delta < 0 && page.atStart ? -1 : 0;
    if (!direction) return;
    edgeTold = Date.now();
    tell({ shelf: 'edge', direction });
  }, { passive: true });
  let start = null;
  document.addEventListener('touchstart', (event) => {
    const t = event.changedTouches[0];
    start = { x: t.clientX, y: t.clientY };
  }, { passive: true });
  document.addEventListener('touchend', (event) => {
    if (!start) return;
    const t = event.changedTouches[0];
    const dx = t.clientX - start.x, dy = t.clientY - start.y;
    start = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) tell({ shelf: 'swipe', direction: dx < 0 ? 'left' : 'right' });
  }, { passive: true });
  // A narrated phrase tapped or entered while listening plays from there (in-book-narration.js).
  hearPhrases(tell);
  // Double tap (a double click) goes forward, as the requirements ask.
  document.addEventListener('dblclick', (event) => {
    if (/** @type {Element} */ (event.target).closest?.('a[href]')) return;
    tell({ shelf: 'double-tap' });
  });
}

if (shown) {
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== app || !message || typeof message.shelf !== 'string') return;
    const result = page.handle(message);
    tell({ shelf: 'reply', id: message.id, result, state: page.state() });
  });
  listen();
  const ready = () => tell({ shelf: 'ready', size: declaredSize() });
  if (document.readyState === 'complete') ready();
  else window.addEventListener('load', ready, { once: true });
}
