// Chapters that follow each other as one scroll (EPUB 3.3 rendition:flow scrolled-continuous, seed 002's "infinite
// scroll"): each chapter is a frame of the book's origin as tall as its text, the frames one under the other in a
// scroller of the reading area. Scrolling near the end of the last frame loads the next chapter under it; near the
// top of the first, the chapter before is put above it (the scroll kept where it was). The chapter at the top of
// the reading area is the one shown: its href, how far into it the screen starts and its first words are the
// place. It offers what ReflowableView offers (main.js uses either), for chapters laid out as one scrolled column.

import { FrameChannel } from './channel.js';

/** Chapters kept loaded at most: the farthest from the one shown is let go. */
const KEPT = 5;

export class ContinuousView {
  /**
   * @param {HTMLElement} viewport  @param {object} handlers  @param {string} sandbox
   * @param {{items: {href: string}[], urlOf: (href: string) => string, joins: (index: number) => boolean}} chain
   *   the reading order, a resource's URL, and whether an entry is one of the chapters that scroll on together
   */
  constructor(viewport, handlers, sandbox, chain) {
    this.viewport = viewport;
    this.handlers = handlers;
    this.sandbox = sandbox;
    this.chain = chain;
    this.fragmentsOf = (href) => [];
    /** @type {{index: number, href: string, frame: HTMLIFrameElement, channel: FrameChannel, state: any}[]} in order */
    this.parts = [];
    this.scroller = this.makeScroller();
    viewport.classList.add('reflowable');
    /** The entry at the top of the reading area. */
    this.index = -1;
  }

  get current() { return this.parts.find((part) => part.index === this.index) ?? this.parts[0]; }
  get href() { return this.current?.href ?? null; }
  get frame() { return this.current?.frame ?? null; }
  get channel() { return this.current?.channel ?? null; }
  get firstIndex() { return this.parts[0]?.index; }
  get lastIndex() { return this.parts.at(-1)?.index; }
  get height() { return this.scroller.clientHeight; }

  get page() { return 0; }
  get pages() { return 1; }
  get scrolled() { return true; }
  get vertical() { return false; }
  get fixedPage() { return false; }
  get rtl() { return !!this.current?.state?.rtl; }

  /** How far into the chapter shown the screen starts (0…1), as a scrolled chapter of its own counts it. */
  get progression() {
    const part = this.current;
    if (!part) return 0;
    const range = part.frame.offsetHeight - this.height;
    const at = this.scroller.scrollTop - part.frame.offsetTop;
    return range > 0 ? Math.max(0, Math.min(1, at / range)) : 0;
  }

  get atStart() { return this.scroller.scrollTop <= 1 && !this.chain.joins(this.firstIndex - 1); }
  get atEnd() {
    const s = this.scroller;
    return s.scrollTop + s.clientHeight >= s.scrollHeight - 1 && !this.chain.joins(this.lastIndex + 1);
  }

  makeScroller() {
    const scroller = document.createElement('div');
    scroller.className = 'scroll';
    scroller.addEventListener('scroll', () => { if (scroller === this.scroller) this.scrolledNow(); }, { passive: true });
    this.viewport.append(scroller);
    return scroller;
  }

  /**
   * Loads entry `index` in a frame laid out as one scrolled column, as tall as its text, put in the scroll where it
   * goes (a frame moved in the document would load its page again): under the others, or above them (`above`), the
   * screen kept on the text it shows.
   */
  async load(index, above = false, scroller = this.scroller) {
    const item = this.chain.items[index];
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', this.sandbox);
    frame.setAttribute('title', 'Book page');
    frame.setAttribute('scrolling', 'no');
    frame.style.height = `${this.height}px`;
    const part = { index, href: item.href, frame, channel: /** @type {any} */ (null), state: null };
    part.channel = new FrameChannel(frame, { ...this.handlers, extent: (height) => this.resize(part, height), wheel: (dy) => this.scrollBy(dy) });
    frame.src = this.chain.urlOf(item.href);
    frame.className = 'loading';
    frame.style.visibility = 'hidden';
    const from = scroller.scrollTop;
    if (above) {
      scroller.prepend(frame);
      scroller.scrollTop = from + frame.offsetHeight;
    } else {
      scroller.append(frame);
    }
    part.channel.attach();
    await part.channel.ready;
    const answer = await part.channel.call('layout', {
      settings: { ...this.settings, flow: 'scrolled', shared: true }, language: this.language,
      place: { progression: 0 }, fragments: this.fragmentsOf(item.href),
    });
    part.state = answer?.state ?? null;
    const before = frame.offsetHeight;
    frame.style.height = `${Math.max(this.height, Math.ceil(part.state?.extent ?? this.height))}px`;
    if (above) scroller.scrollTop += frame.offsetHeight - before;
    frame.className = '';
    frame.style.visibility = '';
    return part;
  }

  /** A chapter's text grew or shrank (its pictures came): its frame follows, the screen staying on the same text. */
  resize(part, height) {
    if (!this.parts.includes(part)) return;
    const before = part.frame.offsetHeight;
    const above = part.frame.offsetTop + before <= this.scroller.scrollTop;
    part.frame.style.height = `${Math.max(this.height, Math.ceil(height))}px`;
    if (above) this.scroller.scrollTop += part.frame.offsetHeight - before;
  }

  // Shows entry `index` alone, then at `place`; the chapters around it come as the patron scrolls.
  // A new scroll is laid out under the one shown, then takes its place.
  async open(index, settings, language, place) {
    this.settings = settings;
    this.language = language;
    const scroller = this.makeScroller();
    scroller.style.visibility = 'hidden';
    const part = await this.load(index, false, scroller);
    for (const old of this.parts) this.drop(old);
    this.scroller.remove();
    this.scroller = scroller;
    scroller.style.visibility = '';
    this.parts = [part];
    this.index = index;
    await this.go(place);
  }

  drop(part) {
    part.channel.detach();
    part.frame.remove();
  }

  close() {
    for (const part of this.parts) this.drop(part);
    this.parts = [];
    this.scroller.remove();
  }

  /** Whether entry `index` is in the scroll. */
  holds(index) { return this.parts.some((part) => part.index === index); }

  // Goes to a place ({progression} | {fragment} | {text} | {end}) in entry `index` (the one shown by default).
  async go(place = {}, index = this.index) {
    const part = this.parts.find((p) => p.index === index) ?? this.current;
    if (!part) return;
    this.index = part.index;
    const top = part.frame.offsetTop, range = Math.max(0, part.frame.offsetHeight - this.height);
    let y = top + range * (place.end ? 1 : place.progression ?? 0);
    if (place.fragment || place.text) {
      const found = await part.channel.call('offset', { place });
      if (typeof found?.result === 'number') y = top + Math.max(0, found.result - this.height / 3);
    }
    this.scroller.scrollTop = y;
    await this.fill();
  }

  // The chapters either side of the screen, loaded when it comes near them.
  async fill() {
    if (this.filling) return;
    this.filling = true;
    try {
      const s = this.scroller;
      const next = this.lastIndex + 1;
      if (s.scrollTop + 2 * this.height >= s.scrollHeight && this.chain.joins(next)) {
        this.parts.push(await this.load(next));
      }
      const previous = this.firstIndex - 1;
      if (s.scrollTop < this.height && this.chain.joins(previous)) {
        this.parts.unshift(await this.load(previous, true));
      }
      while (this.parts.length > KEPT) {
        const first = this.parts[0], last = this.parts.at(-1);
        const far = Math.abs(first.index - this.index) > Math.abs(last.index - this.index) ? first : last;
        const height = far.frame.offsetHeight;
        this.parts = this.parts.filter((p) => p !== far);
        this.drop(far);
        if (far === first) s.scrollTop -= height;
      }
    } finally { this.filling = false; }
  }

  // Scrolled (wheel, keys, a turn): the chapter at the top of the reading area is the one shown.
  scrolledNow() {
    const at = this.scroller.scrollTop + 1;
    const part = [...this.parts].reverse().find((p) => p.frame.offsetTop <= at) ?? this.parts[0];
    if (part) this.index = part.index;
    this.handlers.scrolled?.();
    this.fill().then(() => this.handlers.scrolled?.());
  }

  ask(shelf, data = {}) {
    const part = this.current;
    // The frame is as tall as its text: which of it is on the screen is the scroll's to say.
    if (shelf === 'place') data = { ...data, visible: { top: this.scroller.scrollTop - (part?.frame.offsetTop ?? 0), height: this.height } };
    return part?.channel.call(shelf, data).then((answer) => answer?.result);
  }

  // Lays every chapter out again (settings, the window's size), the screen on the same place.
  async relayout(settings) {
    if (settings) this.settings = settings;
    const place = { progression: this.progression };
    for (const part of this.parts) {
      const answer = await part.channel.call('layout', { settings: { ...this.settings, flow: 'scrolled', shared: true }, language: this.language, place: { progression: 0 } });
      part.state = answer?.state ?? part.state;
      part.frame.style.height = `${Math.max(this.height, Math.ceil(part.state?.extent ?? this.height))}px`;
    }
    await this.go(place);
  }

  /** A screen down (or up), less two lines to keep the place; false at the end (or start) of the scroll. */
  async turn(direction) {
    if (direction > 0 ? this.atEnd : this.atStart) return false;
    await this.fill();
    const line = 2 * 16 * ((this.settings?.fontScale ?? 100) / 100);
    const s = this.scroller, before = s.scrollTop;
    s.scrollTop += direction * (this.height - line);
    if (s.scrollTop === before) return false;
    this.scrolledNow();
    return true;
  }

  next() { return this.turn(1); }
  previous() { return this.turn(-1); }
  scrollBy(pixels) { this.scroller.scrollTop += pixels; }

  clearHighlight() { for (const part of this.parts) part.channel.call('clear-highlight'); }
  pageOfFragment() { return 0; }
  async selectionText() { return (await this.ask('selection')) ?? ''; }
  prefetch(urls) { this.channel?.call('prefetch', { urls }); }
  focus() { this.frame?.focus(); }
}
