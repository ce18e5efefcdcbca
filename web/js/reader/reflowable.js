// One chapter of a reflowable book in a frame of the book's own origin, as pages (CSS columns, one page wide) or
// one scrolled column. The reader's script in the page (in-book.js) lays it out and moves in it; this side asks
// by message (channel.js) and keeps the page's last state, so that the reader can say where the patron is.

import { FrameChannel } from './channel.js';

const START = { page: 0, pages: 1, progression: 0, atStart: true, atEnd: true, scrolled: false, vertical: false, rtl: false, fragmentPages: {} };

export class ReflowableView {
  /** `sandbox`: the frame's sandbox (what the book's page may do besides what its origin's policy allows). */
  constructor(viewport, handlers, sandbox) {
    this.viewport = viewport;
    this.handlers = handlers; // {keydown(event), link(url), swipe(direction), doubleTap()}
    this.sandbox = sandbox;
    this.frame = null;
    this.channel = null;
    this.href = null;
    this.state = START;
    /** The table-of-contents fragments of a chapter, whose pages the page reports (set by the reader). */
    this.fragmentsOf = (href) => [];
    viewport.classList.add('reflowable');
  }

  get page() { return this.state.page; }
  get pages() { return this.state.pages; }
  get progression() { return this.state.progression; }
  get atStart() { return this.state.atStart; }
  get atEnd() { return this.state.atEnd; }
  get scrolled() { return this.state.scrolled; }
  get vertical() { return this.state.vertical; }
  get rtl() { return this.state.rtl; }
  /** Whether the page shown is a fixed-layout page of this reflowable book (drawn whole, not laid out as text). */
  get fixedPage() { return !!this.pageSize; }

  // Loads `url` (the resource `href`) in a new frame, laid out before it is shown, then shows it in place of the
  // old one; `place` says where: {progression} or {fragment} or {text} or {end: true}. The new frame lies over the
  // old one at the whole reading area's size (reader.css), so the page measures the size it is shown at.
  // `fixed`: the spine entry is a fixed-layout page (EPUB 3.3 rendition:layout-pre-paginated in a reflowable book),
  // drawn at the size its viewport declares, scaled to fit the reading area, as a fixed-layout book draws a page.
  async open(url, href, settings, language, place, fixed = false) {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', this.sandbox);
    frame.setAttribute('title', 'Book page');
    if (fixed) frame.setAttribute('scrolling', 'no');
    frame.className = 'loading';
    frame.style.visibility = 'hidden';
    const channel = new FrameChannel(frame, this.handlers);
    frame.src = url;
    this.viewport.append(frame);
    channel.attach();
    await channel.ready;
    const hadFocus = this.frame && (document.activeElement === this.frame);
    const old = this.frame;
    this.channel?.detach();
    this.frame = frame;
    this.channel = channel;
    this.href = href;
    this.settings = settings;
    this.language = language;
    this.state = START;
    this.pageSize = null;
    if (fixed) {
      const size = channel.size ?? {};
      this.pageSize = { width: Number(size.width) || 1200, height: Number(size.height) || 1600 };
      this.fit();
    } else {
      await this.ask('layout', { settings, language, place, fragments: this.fragmentsOf(href) });
    }
    this.viewport.classList.toggle('fixed-page', fixed);
    frame.style.visibility = '';
    frame.className = fixed ? 'fixed-page' : '';
    old?.remove();
    if (hadFocus) frame.focus();
  }

  async ask(shelf, data = {}) {
    const answer = await this.channel?.call(shelf, data);
    if (answer?.state) this.state = answer.state;
    return answer?.result;
  }

  // A fixed-layout page at its declared size, scaled to fit the reading area and centred in it.
  fit() {
    const { width, height } = this.pageSize;
    const area = { width: this.viewport.clientWidth, height: this.viewport.clientHeight };
    const scale = Math.min(area.width / width, area.height / height);
    Object.assign(this.frame.style, {
      width: `${width}px`, height: `${height}px`, transform: `scale(${scale})`,
      left: `${(area.width - width * scale) / 2}px`, top: `${(area.height - height * scale) / 2}px`,
    });
  }

  // Lays the chapter out again for the settings and the frame's size, keeping the place.
  async relayout(settings) {
    if (!this.frame) return;
    if (settings) this.settings = settings;
    if (this.pageSize) return this.fit();
    await this.ask('layout', { settings: this.settings, language: this.language, place: { progression: this.progression }, fragments: this.fragmentsOf(this.href) });
  }

  // A fixed-layout page is one page: nowhere to go in it, nothing to turn.
  async go(place = {}) { if (!this.pageSize) await this.ask('go', { place, fragments: this.fragmentsOf(this.href) }); }

  // Turns a page within the chapter; false at its edge (the caller then opens the next or previous chapter).
  async next() { return !this.pageSize && (await this.ask('turn', { direction: 1 })) === true; }
  async previous() { return !this.pageSize && (await this.ask('turn', { direction: -1 })) === true; }

  clearHighlight() { this.channel?.call('clear-highlight'); }

  /** The page a table-of-contents fragment of this chapter starts on, when the page has said. */
  pageOfFragment(fragment) { return this.state.fragmentPages?.[fragment]; }

  // The words the patron selected in the page, if any.
  async selectionText() { return (await this.ask('selection')) ?? ''; }

  // The chapters either side are fetched by the page itself: the book's origin serves them, the app's does not.
  prefetch(urls) { this.channel?.call('prefetch', { urls }); }

  focus() { this.frame?.focus(); }

  /** Takes the chapter away (the reader changes to another view). */
  close() {
    this.channel?.detach();
    this.frame?.remove();
    this.frame = null;
  }
}
