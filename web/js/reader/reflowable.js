// One chapter of a reflowable book in a sandboxed frame, as pages (CSS columns, one page wide) or one scrolled
// column. The frame may show the book's own markup and styles but never runs its scripts: the server sends
// it with `Content-Security-Policy: sandbox allow-same-origin` and no script source, and the frame element
// repeats that sandbox, so this page can lay the reader's styles over it and measure it.

import { frameCSS } from './frame-style.js';
import { forwardInput } from './frame-input.js';

export class ReflowableView {
  constructor(viewport, handlers) {
    this.viewport = viewport;
    this.handlers = handlers; // {keydown(event), link(url), swipe(direction), selection()}
    this.frame = null;
    this.page = 0;
    this.pages = 1;
    this.href = null;
    viewport.classList.add('reflowable');
  }

  get document() { return this.frame?.contentDocument ?? null; }
  get window() { return this.frame?.contentWindow ?? null; }

  // Loads `url` (the resource `href`) in a new frame, styled and laid out before it is shown, then shows it in
  // place of the old one; `place` says where: {progression} or {fragment} or {text} or {end: true}.
  async open(url, href, settings, language, place) {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-same-origin');
    frame.setAttribute('title', 'Book page');
    frame.className = 'loading';
    frame.style.visibility = 'hidden';
    const loaded = new Promise((resolve, reject) => {
      frame.addEventListener('load', resolve, { once: true });
      frame.addEventListener('error', reject, { once: true });
    });
    frame.src = url;
    this.viewport.append(frame);
    await loaded;
    const hadFocus = this.frame && (document.activeElement === this.frame);
    const old = this.frame;
    this.frame = frame;
    this.href = href;
    this.settings = settings;
    this.language = language;
    this.listen(frame.contentDocument);
    this.layout();
    this.go(place);
    frame.style.visibility = '';
    frame.className = '';
    old?.remove();
    if (hadFocus) frame.focus();
  }

  // Lays the chapter out again for the settings and the frame's size, keeping the place.
  relayout(settings) {
    if (!this.frame) return;
    const progression = this.progression;
    if (settings) this.settings = settings;
    this.layout();
    this.go({ progression });
  }

  layout() {
    const doc = this.document;
    if (!doc?.documentElement) return;
    const root = doc.documentElement;
    // The writing mode must be the root's for the columns to run along it (publishers often set it on body).
    const bodyMode = doc.body ? doc.defaultView.getComputedStyle(doc.body).writingMode : 'horizontal-tb';
    if (bodyMode.startsWith('vertical') || bodyMode.startsWith('sideways')) root.style.setProperty('writing-mode', bodyMode, 'important');
    const mode = doc.defaultView.getComputedStyle(root).writingMode;
    this.vertical = mode.startsWith('vertical') || mode.startsWith('sideways');
    this.rtl = doc.defaultView.getComputedStyle(doc.body ?? root).direction === 'rtl';
    this.width = this.frame.clientWidth;
    this.height = this.frame.clientHeight;
    this.scrolled = this.settings.flow === 'scrolled';
    let style = doc.getElementById('shelf-reader-style');
    if (!style) {
      style = doc.createElement('style');
      style.id = 'shelf-reader-style';
      (doc.head ?? root).append(style);
    }
    style.textContent = frameCSS(this.settings, { width: this.width, height: this.height, vertical: this.vertical, flow: this.settings.flow }, this.language);
    void root.offsetHeight;
    this.measure();
  }

  measure() {
    const scroller = this.document.scrollingElement ?? this.document.documentElement;
    if (this.scrolled) {
      this.pages = 1;
      return;
    }
    const length = this.vertical ? scroller.scrollHeight : scroller.scrollWidth;
    const stride = this.vertical ? this.height : this.width;
    this.pages = Math.max(1, Math.round(length / stride));
  }

  get scroller() { return this.document.scrollingElement ?? this.document.documentElement; }

  // How far into the chapter the page shown starts (0…1).
  get progression() {
    if (!this.frame) return 0;
    if (this.scrolled) {
      const s = this.scroller;
      const range = this.vertical ? s.scrollWidth - this.width : s.scrollHeight - this.height;
      const at = this.vertical ? Math.abs(s.scrollLeft) : s.scrollTop;
      return range > 0 ? Math.min(1, at / range) : 0;
    }
    return this.page / this.pages;
  }

  get atStart() { return this.scrolled ? this.progression <= 0.001 : this.page === 0; }
  get atEnd() { return this.scrolled ? this.progression >= 0.999 : this.page >= this.pages - 1; }

  go(place = {}) {
    if (place.end) return this.show(this.pages - 1, 1);
    if (place.fragment || place.text) {
      const target = place.fragment ? this.rangeOfFragment(place.fragment) : this.rangeOfText(place.text, place.progression);
      if (target) {
        if (place.text) this.highlight(target);
        return this.showRange(target);
      }
    }
    const progression = place.progression ?? 0;
    if (this.scrolled) return this.scrollTo(progression);
    this.show(Math.min(this.pages - 1, Math.floor(progression * this.pages + 1e-6)));
  }

  show(page, scrolledProgression) {
    if (this.scrolled) return this.scrollTo(scrolledProgression ?? 0);
    this.page = Math.max(0, Math.min(this.pages - 1, page));
    const s = this.scroller;
    if (this.vertical) s.scrollTop = this.page * this.height;
    else s.scrollLeft = (this.rtl ? -1 : 1) * this.page * this.width;
  }

  scrollTo(progression) {
    const s = this.scroller;
    if (this.vertical) s.scrollLeft = (this.verticalRL ? -1 : 1) * (s.scrollWidth - this.width) * progression;
    else s.scrollTop = (s.scrollHeight - this.height) * progression;
  }

  get verticalRL() { return this.vertical && this.document.defaultView.getComputedStyle(this.document.documentElement).writingMode !== 'vertical-lr'; }

  // Turns a page within the chapter; false at its edge (the caller then opens the next or previous chapter).
  next() {
    if (this.atEnd) return false;
    if (this.scrolled) return this.scrollBy(1);
    this.show(this.page + 1);
    return true;
  }

  previous() {
    if (this.atStart) return false;
    if (this.scrolled) return this.scrollBy(-1);
    this.show(this.page - 1);
    return true;
  }

  // A screen of the scrolled column, less a line so the reader keeps their place.
  scrollBy(direction) {
    const s = this.scroller;
    const line = 2 * 16 * (this.settings.fontScale / 100);
    if (this.vertical) s.scrollLeft += (this.verticalRL ? -1 : 1) * direction * (this.width - line);
    else s.scrollTop += direction * (this.height - line);
    return true;
  }

  // The page of the chapter holding a range.
  pageOfRange(range) {
    const rects = range.getClientRects();
    const rect = rects.length ? rects[0] : range.getBoundingClientRect();
    const s = this.scroller;
    if (this.vertical) return Math.floor((rect.top + s.scrollTop) / this.height);
    const x = rect.left + s.scrollLeft;
    return this.rtl ? Math.floor((this.width - 1 - x) / this.width) : Math.floor(x / this.width);
  }

  showRange(range) {
    if (this.scrolled) {
      const rect = range.getBoundingClientRect();
      if (this.vertical) this.scroller.scrollLeft += rect.left - this.width / 2;
      else this.scroller.scrollTop += rect.top - this.height / 3;
      return;
    }
    this.show(this.pageOfRange(range));
  }

  rangeOfFragment(fragment) {
    const doc = this.document;
    const element = doc.getElementById(fragment) ?? doc.getElementsByName(fragment)[0];
    if (!element) return null;
    const range = doc.createRange();
    range.selectNodeContents(element);
    if (!range.getClientRects().length) range.selectNode(element);
    return range;
  }

  // The words `text` in the chapter (white space as the host writes it: single spaces), the occurrence nearest
  // to `progression` when there are several.
  rangeOfText(text, progression = 0) {
    const doc = this.document;
    const wanted = text.replace(/\s+/g, ' ').trim().toLowerCase();
    if (!wanted || !doc.body) return null;
    const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
    let flat = '', map = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.nodeValue;
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
    const range = doc.createRange();
    const [startNode, startOffset] = map[best];
    const [endNode, endOffset] = map[best + wanted.length - 1];
    range.setStart(startNode, startOffset);
    range.setEnd(endNode, endOffset + 1);
    return range;
  }

  highlight(range) {
    const win = this.window;
    if (!win?.CSS?.highlights || !win.Highlight) return;
    win.CSS.highlights.set('shelf-hit', new win.Highlight(range));
  }

  clearHighlight() { this.window?.CSS?.highlights?.delete('shelf-hit'); }

  // The words the patron selected in the page, if any.
  get selection() { return this.window?.getSelection()?.toString().trim() ?? ''; }

  listen(doc) { forwardInput(doc, this.handlers); }

  focus() { this.frame?.focus(); }
}
