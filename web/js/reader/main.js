// The reader page (reader.html?book=ID): a book from the shelf in the browser, at the place `shelf read` keeps,
// with the settings `shelf settings` keeps. See README "Reading in the browser".

import { api } from '../api.js';
import { loadNotices, notice, noticeWith } from '../notices.js';
import { PageMap, counterWords } from './pages.js';
import { screenLocator, placeOf, screenKey, onScreen } from './place.js';
import { Settings } from './settings.js';
import { ReflowableView } from './reflowable.js';
import { ContinuousView } from './continuous.js';
import { FixedView } from './fixed.js';
import { TableOfContents } from './toc.js';
import { openPanel } from './panels.js';
import { h } from '../dom.js';
import { announce, alertNow } from './announce.js';
import { themeColours } from './frame-style.js';
import { Links } from './links.js';
import { isRTLBook } from './progression.js';
import { Aside } from './aside.js';
import { declaredFlow, declaredContinuous } from './flow.js';
import { Listening } from './listen.js';
import { Narration, narrationClips } from './narration.js';
import { Jacket, coverHref, authorWords } from './jacket.js';

/** An element of reader.html. @param {string} id */
const $ = (id) => document.getElementById(id);
/** An input, select or output of reader.html, whose value the reader sets and reads. @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ ($(id));
/** One of reader.html's panels. @param {string} id */
const dialog = (id) => /** @type {HTMLDialogElement} */ ($(id));
/** The radio buttons of a setting of the Display panel. @param {string} name */
const radios = (name) => /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(`input[name=${name}]`));

class Reader {
  constructor(bookID) {
    this.bookID = bookID;
    this.bookmarks = [];
    this.savedPage = null;
    this.savedKey = null;
    this.pageMap = null;
    this.hits = [];
    this.hitIndex = -1;
    /** @type {Listening | Narration | null} Listen's controls and sound, made when Listen is first pressed. */
    this.listening = null;
    /** @type {{href: string, fragment: string} | null} The element the patron went to last (a contents entry, a
     * link): a narration starts there (narration.js, which forgets it once it plays elsewhere). */
    this.arrival = null;
  }

  async start() {
    const [data] = await Promise.all([api.get('/api/reader', { book: this.bookID }), loadNotices()]);
    this.book = data.book;
    this.manifest = data.manifest;
    this.base = data.base;
    this.items = this.manifest.readingOrder ?? [];
    /** The reading-order entry shown (a resource the spine lists twice is two entries, told apart by this). */
    this.index = -1;
    this.language = [].concat(this.manifest.metadata?.language ?? [])[0] ?? '';
    this.settings = new Settings(this.bookID, data.settings);
    this.place = data.place;
    this.savedPage = data.place.page;
    this.page = data.place.page;
    this.pages = data.place.pages;
    this.fixed = (this.manifest.metadata?.presentation?.layout ?? this.manifest.metadata?.layout) === 'fixed';
    this.rtl = isRTLBook(this.manifest);

    document.title = `${this.book.title} · shelf`;
    $('title').textContent = this.book.title;
    document.body.classList.toggle('rtl', this.rtl);
    this.applyChrome();
    this.links = new Links((url) => this.followLink(url));
    this.aside = new Aside(this);
    const handlers = {
      keydown: (event) => this.key(event),
      link: (url) => this.followLink(url),
      note: (url, text) => this.links.showNote(url, text),
      swipe: (direction) => ((direction === 'left') !== this.rtl ? this.next() : this.previous()),
      doubleTap: () => this.next(),
      // Scrolled on past a chapter's end (or above its start) in a book whose chapters follow as one scroll.
      edge: (direction) => (direction > 0 ? this.next() : this.previous()),
      // A narrated phrase tapped or entered while listening (narration.js).
      phrase: (id, frame) => (this.listening instanceof Narration ? this.listening.choose(id, frame) : undefined),
      // Scrolled in chapters that follow each other as one scroll (continuous.js): the chapter and place shown.
      scrolled: () => this.followScroll(),
    };
    this.handlers = handlers;
    // A book's own origin (another than the app's): its pages may keep their storage and, if allowed, run their
    // scripts; from the app's own host (--listen) they are opaque and run the reader's script alone.
    const sandbox = new URL(this.base, location.href).origin === location.origin ? 'allow-scripts' : 'allow-scripts allow-same-origin allow-forms';
    this.sandbox = sandbox;
    this.view = this.fixed ? new FixedView($('viewport'), handlers, this.manifest, sandbox) : new ReflowableView($('viewport'), handlers, sandbox);
    if (this.view instanceof FixedView) Object.assign(this.view, { settings: () => this.settings.effective, language: this.language });
    // Read by the reflowable view only.
    /** @type {ReflowableView} */ (this.view).fragmentsOf = (href) => (this.toc?.entries ?? []).map((e) => e.href.split('#')).filter(([h, f]) => h === href && f).map(([, f]) => f);
    this.scripts = data.scripts ?? { possible: false, allowed: false };
    await this.askAboutScripts();
    const locator = data.place.locator ?? {};
    this.savedKey = locator.href ? screenKey(locator) : null;
    // Where `shelf read` opens the book (chapter one) on a first open, else the place saved.
    this.opening = { ...placeOf(locator), href: locator.href ?? this.items[0]?.href };
    const jacket = data.place.first ? this.jacketOf(data) : null;
    if (jacket && !jacket.cover) this.page = 1;
    await this.goTo(jacket && !jacket.cover ? { href: this.items[0].href, progression: 0 } : this.opening, { quiet: true, save: false, page: this.page });
    if (jacket) {
      (this.jacket = new Jacket($('viewport'), jacket, () => this.beginReading())).show();
      this.updateStatus({ quiet: true, save: false });
    }
    // The benchmark (bench/reader) reads this mark: the first page of the book is drawn at the next frame.
    requestAnimationFrame(() => performance.mark('shelf-first-page'));
    this.wire();
    this.loadPages();
    this.loadBookmarks();
    setInterval(() => this.checkElsewhere(), 30000);
    window.addEventListener('focus', () => this.checkElsewhere());
  }

  // A first open shows the book's jacket (jacket.js): its cover, or its first spine item when it has none and
  // chapter one is another; nothing when the book has neither.
  jacketOf(data) {
    const cover = this.fixed ? null : coverHref(this.manifest);
    if (!cover && (this.fixed || this.items[0]?.href === this.opening.href)) return null;
    return {
      title: this.book.title,
      author: authorWords(this.manifest.metadata),
      cover: cover && data.ownBase + cover.split('/').map(encodeURIComponent).join('/'),
    };
  }

  // From the jacket to chapter one: under a cover it is laid out already; after a first spine item it is opened.
  async beginReading() {
    const jacket = this.jacket;
    if (!jacket) return;
    this.jacket = null;
    jacket.close();
    if (jacket.covers) this.updateStatus();
    else await this.goTo(this.opening);
    this.view.focus();
  }

  // After the first page: every chapter's page range and the table of contents.
  async loadPages() {
    try {
      const data = await api.get('/api/reader/pages', { book: this.bookID });
      this.pageMap = new PageMap(data.pages, this.items);
      this.pages = this.pageMap.total || this.pages;
      // Opened before the pages were known: of a resource listed twice, the entry of the page shown.
      const entry = this.pageMap.placeOf(this.page)?.index ?? -1;
      if (!this.fixed && entry >= 0 && this.items[entry].href === this.items[this.index]?.href) this.index = entry;
      this.toc = new TableOfContents($('toc-list'), (entry) => this.goToEntry(entry));
      this.toc.fill(data.toc);
      this.updateStatus({ quiet: true, save: false, page: this.page });
    } catch (error) {
      alertNow(noticeWith('reader.contentsNotRead', error.message));
    }
  }

  async loadBookmarks() {
    try {
      this.bookmarks = await api.get('/api/reader/bookmarks', { book: this.bookID });
    } catch { this.bookmarks = []; }
    this.showBookmarkState();
  }

  resourceURL(href) {
    return this.base + href.split('/').map(encodeURIComponent).join('/');
  }

  indexOf(href) { return this.items.findIndex((item) => item.href === href); }

  /**
   * The reading-order entry a place is in: the one it names (`index`, or its page: `position`), else the entry
   * shown when it is the place's resource (a link inside the chapter), else the first entry of that resource.
   * @param {{href: string, index?: number, position?: number}} place
   */
  entryOf(place) {
    const holds = (index) => index >= 0 && this.items[index]?.href === place.href;
    if (holds(place.index ?? -1)) return place.index;
    const paged = place.position ? this.pageMap?.placeOf(place.position)?.index ?? -1 : -1;
    if (holds(paged)) return paged;
    if (holds(this.index)) return this.index;
    return Math.max(0, this.indexOf(place.href));
  }

  /** The reading-order entry shown: the first page of a spread in a fixed-layout book. */
  get shownIndex() { return this.fixed ? /** @type {FixedView} */ (this.view).shown[0] : this.index; }

  /** Whether entry `index` is one of the chapters that follow each other as one scroll (scrolled-continuous, in
   * the flow in force for it: the patron's choice of pages makes pages of it). */
  continuousAt(index) {
    const item = this.items[index];
    if (!item || this.fixed || item.properties?.layout === 'fixed' || !declaredContinuous(this.manifest, item)) return false;
    return this.settings.flowOf(declaredFlow(this.manifest, item)) === 'scrolled';
  }

  /** The reflowable view for entry `index`: one scroll of chapters (continuous.js) or a chapter alone (reflowable.js). */
  viewFor(index) {
    const continuous = this.continuousAt(index);
    if (continuous === this.view instanceof ContinuousView) return;
    const old = /** @type {ReflowableView | ContinuousView} */ (this.view);
    const chain = { items: this.items, urlOf: (href) => this.resourceURL(href), joins: (i) => this.continuousAt(i) };
    const view = continuous ? new ContinuousView($('viewport'), this.handlers, this.sandbox, chain) : new ReflowableView($('viewport'), this.handlers, this.sandbox);
    view.fragmentsOf = old.fragmentsOf;
    old.close();
    this.view = view;
  }

  // Scrolled in one scroll of chapters: the chapter at the top is the one shown; the bar and the place follow it.
  followScroll() {
    if (this.scrollTimer) return;
    this.scrollTimer = setTimeout(() => {
      this.scrollTimer = null;
      if (!(this.view instanceof ContinuousView) || this.view.index < 0) return;
      this.index = this.view.index;
      this.updateStatus({ quiet: true });
    }, 100);
  }

  /**
   * Opens resource `href` at a place ({progression} | {fragment} | {text, progression} | {end}), in the
   * reading-order entry `entryOf` gives.
   * @param {{href: string, index?: number, position?: number, progression?: number, fragment?: string, text?: string, end?: boolean}} place
   * @param {{quiet?: boolean, save?: boolean, page?: number, reload?: boolean}} [options]
   */
  async goTo(place, options = {}) {
    this.aside?.leave();
    // Going anywhere (the contents, a link, a bookmark) leaves the jacket.
    this.jacket?.close();
    this.jacket = null;
    const index = this.entryOf(place);
    this.index = index;
    this.settings.declaredFlow = declaredFlow(this.manifest, this.items[index]);
    this.settings.declaredContinuous = declaredContinuous(this.manifest, this.items[index]);
    if (!this.fixed) this.applyChrome();
    if (!this.fixed) this.viewFor(index);
    if (this.fixed) {
      await this.view.open((href) => this.resourceURL(href), index);
    } else if (this.view instanceof ContinuousView) {
      if (this.view.holds(index) && !options.reload) await this.view.go(place, index);
      else await this.view.open(index, this.settings.effective, this.language, place);
    } else if (this.view.href === this.items[index].href && !options.reload) {
      await /** @type {ReflowableView} */ (this.view).go(place);
    } else {
      const fixedPage = this.items[index].properties?.layout === 'fixed';
      await this.view.open(this.resourceURL(this.items[index].href), this.items[index].href, this.settings.effective, this.language, place, fixedPage);
    }
    this.updateStatus(options);
    this.prefetch();
    this.arrival = place.fragment && !options.quiet ? { href: this.items[index].href, fragment: place.fragment } : null;
    if (this.arrival && this.listening instanceof Narration) await this.listening.arrive(this.arrival);
  }

  // The chapters either side of the one shown are asked for while the patron reads, so that the server has
  // them at hand for the next turn (it keeps what it read; the browser does not, answers are not cached).
  prefetch() {
    const shown = this.fixed ? /** @type {FixedView} */ (this.view).shown : [this.index];
    const wanted = [shown[shown.length - 1] + 1, shown[shown.length - 1] + 2, shown[0] - 1].filter((i) => i >= 0 && i < this.items.length);
    const urls = wanted.map((index) => this.resourceURL(this.items[index].href));
    (window.requestIdleCallback ?? setTimeout)(() => this.view.prefetch(urls));
  }

  goToPage(page) {
    const where = this.pageMap?.placeOf(page);
    if (where) return this.goTo(where, { page });
  }

  goToEntry(entry) {
    dialog('toc').close();
    const [href, fragment] = entry.href.split('#');
    return this.goTo({ href, fragment, progression: 0 });
  }

  async next() {
    if (this.jacket) return this.beginReading();
    if (this.busy) return;
    this.busy = true;
    try {
      if (await this.view.next()) return this.updateStatus();
      if (this.aside.open) return await this.aside.back();
      const last = this.fixed ? /** @type {FixedView} */ (this.view).shown.at(-1) : this.view instanceof ContinuousView ? this.view.lastIndex : this.index;
      if (last + 1 < this.items.length) await this.goTo({ href: this.items[last + 1].href, index: last + 1, progression: 0 });
      else announce(noticeWith('reader.lastPage', `${this.counter}.`));
    } finally { this.busy = false; }
  }

  async previous() {
    if (this.busy) return;
    this.busy = true;
    try {
      if (await this.view.previous()) return this.updateStatus();
      if (this.aside.open) return await this.aside.back();
      const index = this.view instanceof ContinuousView ? this.view.firstIndex : this.shownIndex;
      if (index > 0) await this.goTo({ href: this.items[index - 1].href, index: index - 1, end: true });
      else announce(noticeWith('reader.firstPage', `${this.counter}.`));
    } finally { this.busy = false; }
  }

  /** Whether the chapter shown is in pages (columns a screen wide): its screens are what the counter counts. */
  get paginated() { const view = /** @type {ReflowableView} */ (this.view); return !this.fixed && !view.scrolled && !view.fixedPage; }

  /** The page counter's words ("Page 3 of 7"). */
  get counter() { return counterWords(/** @type {ReflowableView} */ (this.view), this.paginated, this.page, this.pages); }

  // The page counter, percent read, chapter and bookmark state for the page shown; the place saved.
  // `page`: the host's page when the move was to one (the page shown holds it, though it may start before it).
  /** @param {{quiet?: boolean, save?: boolean, page?: number}} options */
  updateStatus({ quiet = false, save = true, page = undefined } = {}) {
    // In one scroll of chapters, the one at the top is shown.
    if (this.view instanceof ContinuousView && this.view.index >= 0) this.index = this.view.index;
    const href = this.view.href;
    if (page) this.page = page;
    else if (this.pageMap) this.page = this.pageMap.pageAt(href, this.view.progression, this.shownIndex) ?? this.page;
    // Under the cover (jacket.js) chapter one is laid out but not shown: the bar names the cover, and nothing is read.
    const covered = !!this.jacket?.covers;
    const percent = covered ? 0 : this.pageMap ? this.pageMap.percent(this.page) : Math.floor((this.page * 100) / Math.max(1, this.pages));
    const entry = covered ? null : this.toc?.mark(this.page, (e) => this.reached(e), (e) => this.entryStart(e));
    // The entry's title when it is in the resource shown; else the resource's own (a resource listed twice in the
    // spine is read again after entries of later pages), else the entry's (a chapter cut into several files).
    const own = entry && entry.href.split('#')[0] === href ? entry.title : null;
    const chapter = covered ? this.book.title : own ?? this.items[this.shownIndex]?.title ?? entry?.title ?? '';
    $('chapter').textContent = chapter;
    $('page-counter').textContent = covered ? 'Cover' : this.counter;
    $('percent').textContent = `${percent}%`;
    $('gauge').setAttribute('aria-valuenow', String(percent));
    $('gauge').setAttribute('aria-valuetext', `${percent}% read`);
    $('gauge-fill').style.width = `${percent}%`;
    /** @type {HTMLButtonElement} */ ($('previous-page')).disabled = false;
    /** @type {HTMLButtonElement} */ ($('next-page')).disabled = false;
    this.showBookmarkState();
    if (covered) return;
    if (this.listening instanceof Narration) this.listening.onScreen();
    const chapterChanged = chapter !== this.lastChapter;
    this.lastChapter = chapter;
    if (!quiet) announce(`${chapterChanged && chapter ? chapter + ', ' : ''}${this.counter.toLowerCase()}`);
    // A page outside the reading order (aside.js) is no place to come back to: the place stays where the link was.
    if (save && this.pageMap && !this.aside?.open && this.screenKey() !== this.savedKey) this.save();
  }

  /**
   * Where a table-of-contents entry starts for the entry shown: its page, or, when that page is in another
   * reading-order entry of the resource shown (the spine lists it twice), the same page of the entry shown.
   * @param {{page?: number}} entry
   */
  entryStart(entry) {
    const at = entry.page && this.pageMap?.placeOf(entry.page);
    if (!at || at.index === this.shownIndex || at.href !== this.items[this.shownIndex]?.href) return entry.page;
    const from = this.pageMap?.rangeOf(at.href, at.index);
    const here = this.pageMap?.rangeOf(at.href, this.shownIndex);
    return from && here ? entry.page - from.start + here.start : entry.page;
  }

  // Whether the page shown is at or past where a table-of-contents entry starts (its fragment, in this chapter).
  reached(entry) {
    const [href, fragment] = entry.href.split('#');
    if (!fragment || this.fixed || href !== this.view.href) return true;
    const view = /** @type {ReflowableView} */ (this.view);
    const page = view.pageOfFragment(fragment);
    return page === undefined || view.scrolled || page <= view.page;
  }

  /** The Readium locator of the screen shown: its chapter, how far in, its first words (place.js). */
  screenLocator() {
    return screenLocator(this.view, this.items[this.shownIndex], this.fixed, this.page);
  }

  screenKey() {
    return screenKey({ href: this.view.href, locations: { progression: this.fixed ? 0 : this.view.progression, position: this.page } });
  }

  // The place goes to the host as a locator a moment after the last turn, so quick turns make one write.
  save() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(async () => {
      try {
        const locator = await this.screenLocator();
        const answer = await api.post('/api/reader/place', { book: this.bookID, locator });
        this.savedKey = screenKey(answer.locator);
        this.savedPage = answer.page;
      } catch (error) {
        alertNow(noticeWith('reader.placeNotSaved', error.message));
      }
    }, 300);
  }

  // Newest place wins: when `shelf read` (or another browser) moved on since, offer to go there.
  async checkElsewhere() {
    if (this.busy || this.saveTimer && this.screenKey() !== this.savedKey) return;
    try {
      const place = await api.get('/api/reader/place', { book: this.bookID });
      if (place.page !== this.savedPage && place.page !== this.page) {
        this.elsewhere = place;
        $('notice-text').textContent = noticeWith('reader.readOnElsewhere', `Page ${place.page} of ${place.pages}${place.locator?.title ? `, ${place.locator.title}` : ''}.`);
        $('notice').hidden = false;
        announce(noticeWith('reader.readOnElsewhere', notice('reader.goThereOrStay')));
      }
    } catch { /* the next check tries again */ }
  }

  // --- settings -----------------------------------------------------------------------------------------

  applyChrome() {
    const s = this.settings.effective;
    for (const theme of ['day', 'night', 'sepia']) document.body.classList.toggle(`theme-${theme}`, s.theme === theme);
    const viewport = $('viewport');
    viewport.classList.toggle('dimmed', s.brightness < 100);
    viewport.style.setProperty('--brightness', String(s.brightness / 100));
    viewport.style.backgroundColor = this.fixed ? '' : themeColours(s.theme).bg;
    document.body.classList.toggle('scrolled', s.flow === 'scrolled' && !this.fixed);
  }

  async changeSettings(values) {
    try {
      // The page follows at once (change() takes the values before it waits); the host's answer comes after.
      const save = this.settings.change(values);
      await this.applySettings();
      await save;
    } catch (error) {
      alertNow(noticeWith('reader.settingNotSaved', error.message));
    }
  }

  async applySettings() {
    this.applyChrome();
    this.fillDisplay();
    if (!this.fixed) {
      // Pages or one scroll of chapters: another view when the flow changes between them.
      const view = /** @type {ReflowableView | ContinuousView} */ (this.view);
      if (this.continuousAt(this.index) !== view instanceof ContinuousView) await this.goTo({ href: view.href, index: this.index, progression: view.progression }, { reload: true, quiet: true, save: false });
      else await view.relayout(this.settings.effective);
    }
    this.updateStatus({ quiet: true });
  }

  fillDisplay() {
    const s = this.settings.effective;
    field('font-size-value').value = `${s.fontScale}%`;
    for (const input of radios('font')) input.checked = input.value === s.font;
    for (const input of radios('theme')) input.checked = input.value === s.theme;
    for (const input of radios('flow')) input.checked = input.value === s.flow;
    field('brightness').value = String(s.brightness);
    field('brightness-value').value = `${s.brightness}%`;
    field('line-spacing').value = s.lineSpacing;
    field('scripts-allowed').checked = readScripts(this.bookID) === true;
    field('margins').value = String(s.margins);
    field('hyphens').value = s.hyphens;
  }

  // --- the book's own scripts ----------------------------------------------------------------------------

  // A book that declares scripted pages asks once whether it may run them; until the answer its pages show with
  // their scripts off. The answer is kept (this origin's storage) and told to the server at each opening, which
  // lets the scripts of the declared pages run in the book's own origin. The Display panel changes it.
  get scripted() { return this.items.some((item) => [].concat(item.properties?.contains ?? []).includes('js')); }

  async askAboutScripts() {
    $('scripts-setting').hidden = !(this.scripted && this.scripts.possible);
    if (!this.scripted || !this.scripts.possible) return;
    const answer = readScripts(this.bookID);
    if (answer !== null) return this.tellScripts(answer);
    $('scripts-ask').hidden = false;
    const answered = (allowed) => {
      $('scripts-ask').hidden = true;
      this.changeScripts(allowed);
    };
    $('scripts-allow').addEventListener('click', () => answered(true), { once: true });
    $('scripts-deny').addEventListener('click', () => answered(false), { once: true });
  }

  async tellScripts(allowed) {
    if (allowed === this.scripts.allowed) return;
    try {
      await api.post('/api/reader/scripts', { book: this.bookID, allowed });
      this.scripts.allowed = allowed;
    } catch (error) {
      alertNow(noticeWith(allowed ? 'reader.scriptsNotAllowed' : 'reader.scriptsNotTurnedOff', error.message));
    }
  }

  async changeScripts(allowed) {
    writeScripts(this.bookID, allowed);
    const changed = allowed !== this.scripts.allowed;
    await this.tellScripts(allowed);
    if (!changed) return announce(notice(allowed ? 'reader.scriptsRun' : 'reader.scriptsStayOff'));
    await this.goTo({ href: this.view.href, progression: this.view.progression }, { reload: true, quiet: true, save: false });
    announce(notice(allowed ? 'reader.scriptsRun' : 'reader.scriptsOff'));
  }

  // --- bookmarks ----------------------------------------------------------------------------------------

  /** The bookmarks made on the screen shown. */
  get pageBookmarks() { return this.bookmarks.filter((b) => onScreen(b, this.view, this.paginated, this.page, this.shownIndex, this.pageMap)); }

  showBookmarkState() {
    const marked = this.pageBookmarks.length > 0;
    $('bookmark-page').setAttribute('aria-pressed', String(marked));
    $('bookmark-page-label').textContent = marked ? 'Bookmarked' : 'Bookmark page';
  }

  async toggleBookmark() {
    try {
      const existing = this.pageBookmarks;
      if (existing.length) {
        for (const bookmark of existing) await api.delete(`/api/reader/bookmarks/${bookmark.id}`);
        this.bookmarks = this.bookmarks.filter((b) => !existing.includes(b));
        announce(noticeWith('reader.bookmarkRemoved', `${this.counter}.`));
      } else {
        const bookmark = await api.post('/api/reader/bookmarks', { book: this.bookID, locator: await this.screenLocator() });
        this.bookmarks.push(bookmark);
        announce(noticeWith('reader.bookmarkAdded', `${this.counter}.`));
      }
      this.showBookmarkState();
      this.fillBookmarks();
    } catch (error) {
      alertNow(noticeWith('reader.bookmarkNotChanged', error.message));
    }
  }

  fillBookmarks() {
    const list = $('bookmark-list');
    list.replaceChildren();
    $('bookmarks-empty').hidden = this.bookmarks.length > 0;
    for (const bookmark of [...this.bookmarks].sort((a, b) => (a.page ?? 0) - (b.page ?? 0))) {
      const quote = bookmark.locator?.text?.highlight ?? '';
      const where = bookmark.found === false ? 'not in this edition' : `page ${bookmark.page}`;
      const go = h('a', { href: '#', 'aria-disabled': bookmark.found === false ? 'true' : null },
        h('span', { class: 'page' }, where), ' ', quote.slice(0, 90) + (quote.length > 90 ? '…' : ''));
      go.addEventListener('click', (event) => {
        event.preventDefault();
        if (bookmark.found === false) return alertNow(bookmark.problem ?? notice('reader.bookmarkNotInEdition'));
        dialog('bookmarks').close();
        this.goTo(placeOf(bookmark.locator));
      });
      const remove = h('button', { type: 'button' }, 'Remove');
      remove.setAttribute('aria-label', `Remove the bookmark on ${where}`);
      remove.addEventListener('click', async () => {
        try {
          await api.delete(`/api/reader/bookmarks/${bookmark.id}`);
          this.bookmarks = this.bookmarks.filter((b) => b !== bookmark);
          const next = remove.closest('li')?.nextElementSibling?.querySelector('a') ?? $('bookmarks').querySelector('.actions button');
          this.fillBookmarks();
          this.showBookmarkState();
          announce(noticeWith('reader.bookmarkRemoved', bookmark.found === false ? '' : `Page ${bookmark.page}.`));
          next?.focus?.();
        } catch (error) { alertNow(error.message); }
      });
      list.append(h('li', {}, go, remove));
    }
  }

  // --- search -------------------------------------------------------------------------------------------

  async search(words) {
    $('search-status').textContent = 'Searching…';
    let answer;
    try {
      answer = await api.get('/api/reader/search', { book: this.bookID, q: words });
      this.hits = answer.hits;
    } catch (error) {
      $('search-status').textContent = error.message;
      return;
    }
    this.hitIndex = -1;
    const list = $('search-results');
    list.replaceChildren();
    // The host's words for what was found, saying when the search stopped at its limit rather than that is all.
    $('search-status').textContent = answer.said;
    this.hits.forEach((hit, index) => {
      const text = hit.text ?? {};
      const link = h('a', { href: '#' }, h('span', { class: 'page' }, `Page ${hit.locations?.position ?? '?'}: `),
        `…${text.before ?? ''}`, h('mark', {}, text.highlight ?? ''), `${text.after ?? ''}…`);
      link.addEventListener('click', (event) => { event.preventDefault(); this.showHit(index, true); });
      list.append(h('li', {}, link));
    });
  }

  async showHit(index, close) {
    if (!this.hits.length) return;
    this.hitIndex = (index + this.hits.length) % this.hits.length;
    const hit = this.hits[this.hitIndex];
    for (const [i, li] of [...$('search-results').children].entries()) {
      const link = li.querySelector('a');
      if (i === this.hitIndex) link.setAttribute('aria-current', 'true'); else link.removeAttribute('aria-current');
    }
    if (close) dialog('search').close();
    await this.goTo({ href: hit.href, position: hit.locations?.position, progression: hit.locations?.progression ?? 0, text: hit.text?.highlight ?? '' }, { quiet: true });
    announce(`Hit ${this.hitIndex + 1} of ${this.hits.length}, ${this.counter.toLowerCase()}`);
  }

  // --- share --------------------------------------------------------------------------------------------

  async share() {
    try {
      const selected = await this.view.selectionText();
      const body = { book: this.bookID };
      if (selected) body.locator = { href: this.view.href, type: 'application/xhtml+xml', locations: { progression: this.view.progression }, text: { highlight: selected.slice(0, 300) } };
      else body.page = this.page;
      const answer = await api.post('/api/reader/share', body);
      try {
        await navigator.clipboard.writeText(answer.text);
        announce(answer.said);
        this.showShared(answer.said);
      } catch {
        this.lastShare = answer.text;
        alertNow(noticeWith('reader.clipboardRefused', answer.text));
      }
    } catch (error) {
      alertNow(noticeWith('reader.nothingToShare', error.message));
    }
  }

  /** The copy is seen as well as heard: a note over the top bar for a few seconds (it takes no room from the page). */
  showShared(words) {
    let note = $('share-note');
    if (!note) {
      note = h('p', { id: 'share-note', class: 'share-note' });
      document.body.append(note);
    }
    note.textContent = words;
    note.hidden = false;
    clearTimeout(this.shareNoteTimer);
    this.shareNoteTimer = setTimeout(() => { note.hidden = true; }, 8000);
  }

  // --- links, keys and controls ------------------------------------------------------------------------

  followLink(url) {
    const base = new URL(this.base, location.href);
    if (url.origin === base.origin && url.pathname.startsWith(base.pathname)) {
      const href = url.pathname.slice(base.pathname.length).split('/').map(decodeURIComponent).join('/');
      if (this.indexOf(href) >= 0) return this.goTo({ href, fragment: url.hash.slice(1) || undefined, progression: 0 });
      if (this.aside.isPage(href)) return this.aside.show(href, url.hash.slice(1) || undefined).then(() => this.updateStatus({ quiet: true, save: false }));
      return alertNow(notice('reader.linkOutsideReadingOrder'));
    }
    this.links.leave(url);
  }

  key(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof Element && target.ownerDocument === document) {
      // Typing, choosing and open panels keep their keys; Space and Enter press buttons and follow links.
      if (target.closest('input, select, textarea, dialog')) return;
      if ([' ', 'Enter'].includes(event.key) && target.closest('button, a')) return;
    }
    // In one scroll of chapters the arrows scroll it (the page in a frame as tall as its text does not scroll).
    if (this.view instanceof ContinuousView && ['ArrowDown', 'ArrowUp'].includes(event.key)) {
      event.preventDefault();
      return this.view.scrollBy(event.key === 'ArrowDown' ? 48 : -48);
    }
    const scrolled = this.settings.effective.flow === 'scrolled' && !this.fixed;
    const forward = [this.rtl ? 'ArrowLeft' : 'ArrowRight', 'PageDown'];
    const back = [this.rtl ? 'ArrowRight' : 'ArrowLeft', 'PageUp'];
    if (!scrolled) { forward.push('ArrowDown'); back.push('ArrowUp'); }
    if (event.key === ' ') (event.shiftKey ? back : forward).push(' ');
    if (forward.includes(event.key)) { event.preventDefault(); this.next(); }
    else if (back.includes(event.key)) { event.preventDefault(); this.previous(); }
  }

  wire() {
    document.addEventListener('keydown', (event) => this.key(event));
    $('next-page').addEventListener('click', () => this.next());
    $('previous-page').addEventListener('click', () => this.previous());
    $('edge-next').addEventListener('click', () => this.next());
    $('edge-previous').addEventListener('click', () => this.previous());
    // Right to left: the next page is on the left, so the bottom bar's buttons swap sides.
    if (this.rtl) $('previous-page').before($('next-page'));

    const openTOC = (opener) => openPanel($('toc'), opener, () => this.toc?.currentLink ?? null);
    $('open-toc').addEventListener('click', () => openTOC($('open-toc')));
    $('bottom-toc').addEventListener('click', () => openTOC($('bottom-toc')));
    $('open-bookmarks').addEventListener('click', () => { this.fillBookmarks(); openPanel($('bookmarks'), $('open-bookmarks'), () => $('bookmark-list').querySelector('a')); });
    $('bookmark-page').addEventListener('click', () => this.toggleBookmark());
    $('share').addEventListener('click', () => this.share());
    $('open-search').addEventListener('click', () => openPanel($('search'), $('open-search'), () => $('search-query')));
    // Listen: the book's own narration when it has one (EPUB 3 media overlays, narration.js), else the book read
    // aloud by the host, the sentence heard highlighted (listen.js), in a reflowable or a fixed-layout book.
    const narrated = narrationClips(this.manifest).length > 0;
    $('listen').addEventListener('click', () => (this.listening ??= narrated ? new Narration(this) : new Listening(this)).open());
    $('search-form').addEventListener('submit', (event) => { event.preventDefault(); const q = field('search-query').value.trim(); if (q) this.search(q); });
    $('search-next').addEventListener('click', () => this.showHit(this.hitIndex + 1, false));
    $('search-previous').addEventListener('click', () => this.showHit(this.hitIndex - 1, false));

    this.fillDisplay();
    $('open-display').addEventListener('click', () => { this.fillDisplay(); openPanel($('display'), $('open-display'), () => $('font-larger')); });
    const step = (delta) => {
      const { min, max } = this.settings.scaleRange;
      const scale = Math.max(min, Math.min(max, this.settings.effective.fontScale + delta));
      this.changeSettings({ fontScale: scale });
      announce(`Text size ${scale}%`);
    };
    $('font-smaller').addEventListener('click', () => step(-10));
    $('font-larger').addEventListener('click', () => step(10));
    for (const name of ['font', 'theme', 'flow']) {
      for (const input of radios(name)) {
        input.addEventListener('change', () => { if (input.checked) this.changeSettings({ [name]: input.value }); });
      }
    }
    $('brightness').addEventListener('input', () => this.changeSettings({ brightness: Number(field('brightness').value) }));
    $('line-spacing').addEventListener('change', () => this.changeSettings({ lineSpacing: field('line-spacing').value }));
    $('margins').addEventListener('change', () => this.changeSettings({ margins: Number(field('margins').value) }));
    $('hyphens').addEventListener('change', () => this.changeSettings({ hyphens: field('hyphens').value }));
    $('scripts-allowed').addEventListener('change', () => this.changeScripts(field('scripts-allowed').checked));
    $('settings-everywhere').addEventListener('click', async () => {
      try { await this.settings.useEverywhere(); this.applySettings(); announce(notice('reader.settingsEverywhere')); } catch (error) { alertNow(error.message); }
    });
    $('settings-reset').addEventListener('click', async () => {
      try { await this.settings.resetBook(); this.applySettings(); announce(notice('reader.settingsOfEveryBook')); } catch (error) { alertNow(error.message); }
    });

    $('notice-go').addEventListener('click', () => {
      $('notice').hidden = true;
      const place = this.elsewhere;
      this.savedPage = place.page;
      this.savedKey = screenKey(place.locator);
      this.goTo(placeOf(place.locator), { page: place.page }).then(() => $('next-page').focus());
    });
    $('notice-stay').addEventListener('click', () => { $('notice').hidden = true; this.save(); this.savedPage = null; this.savedKey = null; $('next-page').focus(); });

    let resizeTimer;
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(async () => { await this.view.relayout(); this.updateStatus({ quiet: true, save: false }); }, 150);
    });
  }
}

// The back arrow leads where the reader came from (?from=): the book's jacket in the catalog (for a book borrowed
// from a library), My Books, or the catalog, the app's home.
function setBack(bookID) {
  const from = new URLSearchParams(location.search).get('from') ?? 'shelf';
  const catalog = /^catalog:([^:]+):(.+)$/.exec(bookID);
  const targets = {
    jacket: catalog ? [`/#/book?${new URLSearchParams({ id: catalog[2], account: catalog[1] })}`, 'Back to the book'] : null,
    shelf: ['/#/my-books', 'Back to My Books'],
    home: ['/#/catalog', 'Back to the catalog'],
  };
  const [href, words] = targets[from] ?? targets.shelf;
  /** @type {HTMLAnchorElement} */ ($('back')).href = href;
  $('back-label').textContent = words;
}

/**
 * A book that cannot be opened: the host's sentence as the title, the reason on the page as well as to screen
 * readers, and no tool to press.
 * @param {string} title
 * @param {string} words
 */
function cannotOpen(title, words) {
  $('title').textContent = title;
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('.tools button, .bar.bottom button'))) button.disabled = true;
  const way = h('a', { href: /** @type {HTMLAnchorElement} */ ($('back')).href }, $('back-label').textContent);
  $('viewport').replaceChildren(h('p', { class: 'failure' }, words, ' ', way));
  alertNow(words);
}

// The patron's answer about a book's scripts: true, false, or null when not asked yet.
function readScripts(bookID) {
  try { return JSON.parse(localStorage.getItem(`shelf.reader.scripts.${bookID}`) ?? 'null'); } catch { return null; }
}

function writeScripts(bookID, allowed) {
  try { localStorage.setItem(`shelf.reader.scripts.${bookID}`, JSON.stringify(allowed)); } catch { /* kept for this page only */ }
}

const bookID = new URLSearchParams(location.search).get('book');
if (!bookID) {
  loadNotices().then(() => cannotOpen(notice('reader.notOpened'), notice('reader.noBookNamed')));
} else {
  setBack(bookID);
  const reader = new Reader(bookID);
  /** @type {any} */ (window).shelfReader = reader; // for the browser tests and the benchmark
  reader.start().catch(async (error) => {
    await loadNotices();
    cannotOpen(notice('reader.notOpened'), error.message + (error.hint ? ` ${error.hint}` : ''));
  });
}
