// A fixed-layout book: each reading-order item is a page drawn at the size its viewport declares, scaled to fit;
// two pages side by side as a spread when the window is wider than tall and the book allows spreads. Which pages
// share a spread is the spine's to say (EPUB 3.3 `page-spread-left`, `-right`, `-center`, as Readium groups them);
// a page alone keeps the scale of a spread. Right-to-left books put the first page of a spread on the right.

// Each page is in a frame of the book's origin; the reader's script there (in-book.js) says the size the page
// declares and passes on what the patron does (channel.js).

import { FrameChannel } from './channel.js';
import { isRTLBook } from './progression.js';

export class FixedView {
  constructor(viewport, handlers, manifest, sandbox) {
    this.viewport = viewport;
    this.handlers = handlers;
    this.sandbox = sandbox;
    this.items = manifest.readingOrder;
    const presentation = manifest.metadata?.presentation ?? {};
    this.spreadRule = presentation.spread ?? 'auto';
    this.rtl = isRTLBook(manifest);
    /** The patron's settings and the book's language, for a page the book lets reflow (set by the reader). */
    this.settings = () => ({});
    this.language = '';
    /** @type {number[][] | null} the spreads, grouped once they are asked for */
    this.grouped = null;
    this.frames = [];
    this.index = 0; // the first reading-order item of the spread shown
    viewport.classList.add('fixed');
  }

  get spreads() {
    if (this.spreadRule === 'none') return false;
    const landscape = this.viewport.clientWidth > this.viewport.clientHeight;
    return this.spreadRule === 'both' || landscape;
  }

  // The items shown together with item `index`.
  spreadOf(index) {
    if (!this.spreads) return [index];
    // A reflowed page (rendition:layout-reflowable) shares no spread: it is alone, as a centred page is.
    this.grouped ??= groupSpreads(this.items.map((item) => (this.reflowed(item) ? 'center' : item.properties?.page)), this.rtl);
    return this.grouped.find((group) => group.includes(index)) ?? [index];
  }

  /** Whether reading-order item `item` overrides the book's fixed layout (EPUB 3.3 rendition:layout-reflowable). */
  reflowed(item) { return item?.properties?.layout === 'reflowable'; }

  get shown() { return this.spreadOf(this.index); }
  get atStart() { return this.shown[0] === 0; }
  get atEnd() { const shown = this.shown; return shown[shown.length - 1] >= this.items.length - 1; }

  async open(urlOf, index) {
    this.urlOf = urlOf;
    index = Math.max(0, Math.min(this.items.length - 1, index));
    const shown = this.spreadOf(index);
    const hadFocus = this.frames.some((f) => f.frame === document.activeElement);
    const pages = await Promise.all(shown.map((i) => this.load(i)));
    // The spread changes only once its pages are there, so what it reports is always what is drawn.
    this.index = index;
    for (const page of this.frames) {
      page.channel.detach();
      page.box.remove();
    }
    // The new pages stay where they loaded: a frame taken out of the document and put back loads its page again
    // (a new window, which the channel does not know). Their order on screen is the flex order.
    pages.forEach((page, i) => page.box.style.setProperty('order', String(this.rtl ? pages.length - i : i)));
    this.frames = pages;
    this.fit();
    if (hadFocus) pages[0].frame.focus();
  }

  async load(index) {
    const box = document.createElement('div');
    box.className = 'page';
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', this.sandbox);
    frame.setAttribute('title', `Page ${index + 1}`);
    const reflowed = this.reflowed(this.items[index]);
    if (!reflowed) frame.setAttribute('scrolling', 'no');
    const channel = new FrameChannel(frame, this.handlers);
    frame.src = this.urlOf(this.items[index].href);
    box.append(frame);
    // Loaded off screen first so its size can be read before it is drawn.
    box.style.position = 'absolute';
    box.style.visibility = 'hidden';
    this.viewport.append(box);
    channel.attach();
    await channel.ready;
    if (reflowed) {
      // Reflowed, as in a reflowable book: the whole reading area, one scrolled column in the patron's settings.
      const area = { width: this.viewport.clientWidth, height: this.viewport.clientHeight };
      frame.style.width = `${area.width}px`;
      frame.style.height = `${area.height}px`;
      await channel.call('layout', { settings: { ...this.settings(), flow: 'scrolled' }, language: this.language, place: { progression: 0 } });
      return { box, frame, channel, index, reflowed, ...area };
    }
    const size = channel.size ?? { width: 1200, height: 1600 };
    return { box, frame, channel, index, reflowed, width: Number(size.width) || 1200, height: Number(size.height) || 1600 };
  }

  fit() {
    const available = { width: this.viewport.clientWidth, height: this.viewport.clientHeight };
    // A page alone in a window that shows spreads is drawn at the scale it would have beside another.
    const alone = this.spreads && this.frames.length === 1 && !this.frames[0].reflowed;
    const totalWidth = alone ? 2 * this.frames[0].width : this.frames.reduce((sum, p) => sum + p.width, 0);
    const tallest = Math.max(...this.frames.map((p) => p.height));
    const scale = this.frames[0]?.reflowed ? 1 : Math.min(available.width / totalWidth, available.height / tallest);
    for (const page of this.frames) {
      page.box.style.position = '';
      page.box.style.visibility = '';
      page.box.style.width = `${page.width * scale}px`;
      page.box.style.height = `${page.height * scale}px`;
      page.frame.style.width = `${page.width}px`;
      page.frame.style.height = `${page.height}px`;
      page.frame.style.transform = `scale(${scale})`;
    }
  }

  relayout() { if (this.frames.length) this.open(this.urlOf, this.index); }

  async next() {
    if (this.atEnd) return false;
    const shown = this.shown;
    await this.open(this.urlOf, shown[shown.length - 1] + 1);
    return true;
  }

  async previous() {
    if (this.atStart) return false;
    await this.open(this.urlOf, this.shown[0] - 1);
    return true;
  }

  get href() { return this.items[this.shown[0]].href; }
  get progression() { return 0; }
  async selectionText() {
    const answers = await Promise.all(this.frames.map((p) => p.channel.call('selection')));
    return answers.map((a) => a?.result ?? '').join(' ').trim();
  }

  clearHighlight() {}

  prefetch(urls) { this.frames[0]?.channel.call('prefetch', { urls }); }

  focus() { this.frames[0]?.frame.focus(); }
}

/**
 * The spreads of a book, in reading order, from each page's side (`left`, `right`, `center` or none): a page in
 * the centre is alone; a page on the side a spread starts on (left, or right in a right-to-left book) is joined by
 * the next unless that one also starts a spread or is centred; a page on the other side is alone. A first page
 * that says nothing is a recto alone (a cover), as books begin; later pages that say nothing pair up in turn.
 * @param {(string | undefined)[]} sides  @param {boolean} rtl  @returns {number[][]}
 */
export function groupSpreads(sides, rtl) {
  const starts = rtl ? 'right' : 'left';
  const groups = [];
  for (let i = 0; i < sides.length; i++) {
    const side = sides[i] ?? (i === 0 ? 'first' : undefined);
    const next = sides[i + 1];
    const startsSpread = side === starts || side === undefined;
    if (startsSpread && i + 1 < sides.length && next !== starts && next !== 'center') {
      groups.push([i, i + 1]);
      i++;
    } else {
      groups.push([i]);
    }
  }
  return groups;
}
