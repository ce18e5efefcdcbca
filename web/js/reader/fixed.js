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
    this.grouped ??= groupSpreads(this.items.map((item) => item.properties?.page), this.rtl);
    return this.grouped.find((group) => group.includes(index)) ?? [index];
  }

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
    for (const page of this.frames) page.channel.detach();
    this.viewport.replaceChildren(...(this.rtl ? [...pages].reverse() : pages).map((p) => p.box));
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
    frame.setAttribute('scrolling', 'no');
    const channel = new FrameChannel(frame, this.handlers);
    frame.src = this.urlOf(this.items[index].href);
    box.append(frame);
    // Loaded off screen first so its size can be read before it is drawn.
    box.style.position = 'absolute';
    box.style.visibility = 'hidden';
    this.viewport.append(box);
    channel.attach();
    await channel.ready;
    const size = channel.size ?? { width: 1200, height: 1600 };
    return { box, frame, channel, index, width: Number(size.width) || 1200, height: Number(size.height) || 1600 };
  }

  fit() {
    const available = { width: this.viewport.clientWidth, height: this.viewport.clientHeight };
    // A page alone in a window that shows spreads is drawn at the scale it would have beside another.
    const alone = this.spreads && this.frames.length === 1;
    const totalWidth = alone ? 2 * this.frames[0].width : this.frames.reduce((sum, p) => sum + p.width, 0);
    const tallest = Math.max(...this.frames.map((p) => p.height));
    const scale = Math.min(available.width / totalWidth, available.height / tallest);
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
