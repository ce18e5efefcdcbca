// Listening to a narrated book (EPUB 3 media overlays): the book's own recorded voice, phrase by phrase as its
// SMIL files say (the manifest's `readingOrder[].alternate[].properties.clips`), played by the Listen bar's audio
// element (listen.js: Play, Pause, Back, Forward, the speed with the pitch kept and the sleep timer work as for a
// book read aloud). The audio files are the book's, from the app's own origin in parts (Range), as audiobook
// tracks are. The phrase playing carries the book's `media:active-class` (else the reader's own highlight), and
// the page, the chapter or the fixed-layout spread follows it. While the bar is open a tap or Enter on a phrase
// plays from there. The patron may skip page numbers and notes (Media Overlays "skippability"), and
// "Leave this part" goes on after the table, list, figure or note being read ("escapability": the manifest's
// `structure`). Never starts by itself; the phrase heard is kept as the reading place (a locator naming it).
// Going to an element (a contents entry, a link) moves the narration to the first phrase at or after it. A part
// with no narration of its own (a partly narrated book) is passed over, and said. While it plays, the page read
// carries the book's `media:playback-active-class`.
// See README "Listening to a narrated book" and /api/reader/narration (web/openapi/reader.json).

import { api } from '../api.js';
import { noticesOf } from '../notices.js';
import { h } from '../dom.js';
import { announce, alertNow } from './announce.js';
import { Listening } from './listen.js';
import { spoken } from '../player/words.js';
import { sessionHeaders } from '../session.js';

/** The Media Overlays 3.3 skippable structures the patron may choose not to hear: page numbers and notes. */
const SKIPPABLE = new Set(['pagebreak', 'note', 'footnote', 'endnote', 'rearnote', 'annotation', 'sidebar', 'marginalia',
  'practice', 'help']);
const STEP = 30;
/** Two clips are one stretch of sound when one begins where the other ends (within this many seconds). */
const JOINED = 0.05;

/**
 * @typedef {{item: number, href: string, id: string, audio: string, begin: number, end: number, types: string[],
 *   structure: string | null}} Clip
 */

/**
 * The book's narration in play order: each reading-order item's clips, in the spine's order.
 * @param {any} manifest  @returns {Clip[]}
 */
export function narrationClips(manifest) {
  const items = manifest?.readingOrder ?? [];
  /** @type {Clip[]} */
  const clips = [];
  items.forEach((item, index) => {
    for (const alternate of item.alternate ?? []) {
      for (const clip of alternate.properties?.clips ?? []) {
        const [href, id] = String(clip.text ?? '').split('#');
        if (!clip.audio || !id) continue;
        // The entry's own text, else the entry that holds the fragment (a SMIL file may narrate several).
        const own = item.href === href ? index : items.findIndex((i) => i.href === href);
        clips.push({
          item: own < 0 ? index : own, href: own < 0 ? item.href : href, id, audio: String(clip.audio),
          begin: Number(clip.clipBegin) || 0, end: typeof clip.clipEnd === 'number' ? clip.clipEnd : Infinity,
          types: Array.isArray(clip.types) ? clip.types.map(String) : [], structure: clip.structure ?? null,
        });
      }
    }
  });
  return clips;
}

export class Narration extends Listening {
  constructor(reader) {
    super(reader);
    /** @type {Clip[]} */
    this.clips = narrationClips(reader.manifest);
    this.at = -1; // the clip playing
    this.skipping = false;
    this.activeClass = String(reader.manifest.metadata?.mediaActiveClass ?? '');
    this.playbackClass = String(reader.manifest.metadata?.mediaPlaybackActiveClass ?? '');
    /** @type {Record<string, string>} what the narration says, from the host's words */
    this.words = {};
    this.timer = 0;
    this.audio.addEventListener('error', () => { if (this.data) alertNow(this.words.cannotPlay); });
  }

  build() {
    super.build();
    const ui = this.ui;
    ui.skip = h('input', { type: 'checkbox', id: 'listen-skip' });
    ui.skip.addEventListener('change', () => this.setSkipping(/** @type {HTMLInputElement} */ (ui.skip).checked));
    ui.escape = h('button', { type: 'button', id: 'listen-escape', onclick: () => this.escape() }, 'Leave this part');
    ui.status.before(h('label', {}, ui.skip, ' Skip page numbers and notes'), ui.escape);
  }

  // What the bar's status names: the reading-order item's title, else the chapter the reader shows.
  get trackInfo() {
    const clip = this.clips[this.at];
    return clip ? { title: this.reader.items[clip.item]?.title ?? this.reader.lastChapter } : null;
  }

  // Listen: the bar opens at the phrase shown (or the one heard last); Play plays.
  async open() {
    const bar = this.ui.bar;
    if (!bar.hidden || this.opening) { this.ui.play.focus(); return; }
    // The element the patron went to, looked for before the bar takes its room (the pages are laid out again).
    this.opening = true;
    const arrival = this.reader.arrival;
    const arrived = arrival ? await this.clipFrom(arrival.href, arrival.fragment, true).catch(() => -1) : -1;
    this.opening = false;
    bar.hidden = false;
    document.getElementById('listen')?.setAttribute('aria-expanded', 'true');
    this.ui.play.disabled = true;
    this.ui.status.textContent = '';
    // The pages make room for the bar (a fixed-layout spread is drawn smaller, not loaded again), once the frame has
    // its new size: laid out at the old one, the page turned to a phrase would show other text when it shrinks.
    const view = /** @type {any} */ (this.reader.view);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const relayout = this.reader.fixed ? view.fit() : view.relayout?.();
    try {
      this.data = await api.get('/api/reader/narration', { book: this.reader.bookID });
      this.words = noticesOf('narration');
      await relayout;
      await this.cue(arrived >= 0 ? arrived : await this.startClip());
      await this.follow();
      this.ui.play.disabled = false;
      this.ui.status.textContent = this.words.ready;
      announce(this.words.ready);
      this.ui.play.focus();
    } catch (error) {
      this.ui.status.textContent = error.message + (error.hint ? ` ${error.hint}` : '');
      alertNow(this.ui.status.textContent);
    }
  }

  close() {
    clearTimeout(this.timer);
    const frames = this.frames();
    super.close();
    this.at = -1;
    this.shownClip = null;
    for (const { channel } of frames) channel?.call('narrate', { ids: [] });
  }

  // (Unless the patron went to an element still shown: open.) The phrase heard last when it is on the screen
  // shown, else the first phrase shown, else the first after it.
  async startClip() {
    const place = await api.get('/api/reader/place', { book: this.reader.bookID }).catch(() => null);
    const fragment = place?.locator?.locations?.fragments?.[0];
    const shown = this.frames();
    const heard = this.clips.findIndex((c) => c.href === place?.locator?.href && c.id === fragment);
    if (heard >= 0 && shown.some((f) => f.href === this.clips[heard].href)) return heard;
    for (const frame of shown) {
      const ids = this.idsOf(frame.href);
      if (!ids.length) continue;
      const first = this.reader.fixed ? ids[0] : await frame.ask({ ids, first: true });
      const index = this.clips.findIndex((c) => c.href === frame.href && c.id === first);
      if (index >= 0) return index;
    }
    const item = Math.max(...shown.map((f) => this.reader.indexOf(f.href)));
    const after = this.clips.findIndex((c) => c.item >= item);
    return after >= 0 ? after : 0;
  }

  /**
   * The frames of the screen: each with the reading-order href it shows and a way to ask it.
   * @returns {{href: string, channel: any, ask: (data: object) => Promise<any>}[]}
   */
  frames() {
    const view = /** @type {any} */ (this.reader.view);
    if (this.reader.fixed) {
      return (view.frames ?? []).map((page) => ({
        href: this.reader.items[page.index]?.href, channel: page.channel,
        ask: async (data) => (await page.channel.call('narrate', data))?.result ?? null,
      }));
    }
    return view.href ? [{ href: view.href, channel: view.channel, ask: (data) => view.ask('narrate', data) }] : [];
  }

  idsOf(href) { return this.clips.filter((c) => c.href === href).map((c) => c.id); }

  /**
   * The clip of the first phrase at or after element `fragment` of `href` (a page shown), else the first clip of a
   * later chapter; -1 when it is not shown (`onScreen`: the patron read on since going there) or none follows.
   * @param {string} href  @param {string} fragment  @param {boolean} onScreen
   */
  async clipFrom(href, fragment, onScreen) {
    const frame = this.frames().find((f) => f.href === href);
    if (!frame) return -1;
    // The page answers null when the element is not there (or not shown), '' when no phrase of its comes after it.
    const id = await frame.ask({ ids: this.idsOf(href), from: fragment, onScreen });
    if (id === null) return -1;
    if (id) return this.clips.findIndex((c) => c.href === href && c.id === id);
    const item = this.reader.indexOf(href);
    return this.clips.findIndex((c) => c.item > item);
  }

  /**
   * The reader went to an element (a contents entry, a link, main.js's `arrival`): the narration goes on from the
   * first phrase at or after it, playing if it played.
   * @param {{href: string, fragment: string}} arrival
   */
  async arrive(arrival) {
    if (this.at < 0 || !this.data || this.ui.bar.hidden) return;
    const index = await this.clipFrom(arrival.href, arrival.fragment, false);
    if (index < 0 || index === this.at) return;
    await this.cue(index);
    if (this.wantPlaying && this.audio.paused) await this.audio.play().catch(() => {});
    await this.follow();
    this.report();
  }

  // Readies clip `index` at `time` (its beginning by default): its audio loaded, at that time.
  async cue(index, time = undefined) {
    const clip = this.clips[index];
    if (!clip) return;
    // The narration is elsewhere now: listening again starts where it is, not where the patron last went.
    this.reader.arrival = null;
    this.at = index;
    this.track = clip.item;
    this.finished = false;
    const url = this.data.audioBase + clip.audio.split('/').map(encodeURIComponent).join('/');
    if (this.audio.getAttribute('src') !== url) {
      const loaded = new Promise((resolve) => this.audio.addEventListener('loadedmetadata', resolve, { once: true }));
      this.audio.src = url;
      this.audio.playbackRate = this.rate;
      this.audio.defaultPlaybackRate = this.rate;
      this.audio.load();
      await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
    this.audio.currentTime = time ?? clip.begin;
  }

  /** The clip after (or before) clip `index`, passing over the skippable ones when the patron skips them; -1 at the end. */
  step(index, direction = 1) {
    for (let i = index + direction; i >= 0 && i < this.clips.length; i += direction) {
      if (!this.skipping || !this.clips[i].types.some((t) => SKIPPABLE.has(t))) return i;
    }
    return -1;
  }

  // Where the sound is: the clip whose span holds the audio element's time. Past the end of the clip playing, the
  // next one (its sound follows on, or is sought); the page, the chapter or the spread follows the phrase.
  async follow() {
    if (this.at < 0 || !this.data) return;
    if (this.following) { this.again = true; return; }
    this.following = true;
    try {
      do {
        this.again = false;
        await this.settle();
        await this.show(this.clips[this.at]);
      } while (this.again);
    } finally { this.following = false; }
    this.schedule();
  }

  async settle() {
    for (;;) {
      const clip = this.clips[this.at];
      const now = this.audio.currentTime;
      const ended = this.audio.ended || now >= clip.end;
      if (!ended) return;
      const next = this.step(this.at);
      if (next < 0) return this.finish();
      const following = this.clips[next];
      if (this.sleep?.mode === 'chapter' && following.item !== clip.item) {
        await this.cue(next);
        return this.sleepEnds();
      }
      const joined = following.audio === clip.audio && Math.abs(following.begin - clip.end) < JOINED && !this.audio.ended;
      if (joined) {
        this.at = next;
        this.track = following.item;
        continue;
      }
      await this.cue(next);
      if (this.wantPlaying && this.audio.paused) await this.audio.play().catch(() => {});
      this.passOver(clip.item, following.item);
      return;
    }
  }

  // Parts of the book between two narrated ones that have no narration of their own (a partly narrated book) are
  // passed over, each said by its title and the host's words.
  passOver(from, to) {
    const parts = this.reader.items.slice(from + 1, Math.max(from + 1, to));
    if (parts.length) announce(parts.map((item) => `${item.title ?? item.href}. ${this.words.passedOver}`).join(' '));
  }

  // Past the last phrase: said once.
  finish() {
    if (this.finished) return;
    this.finished = true;
    this.wantPlaying = false;
    if (!this.audio.paused) this.audio.pause();
    this.report();
    this.mark();
    announce(this.words.ended);
  }

  // The end of the clip playing is looked at when it comes (the audio element's time updates come 4 a second).
  schedule() {
    clearTimeout(this.timer);
    const clip = this.clips[this.at];
    if (!clip || this.audio.paused || !Number.isFinite(clip.end)) return;
    const wait = ((clip.end - this.audio.currentTime) / (this.audio.playbackRate || 1)) * 1000;
    this.timer = setTimeout(() => this.follow(), Math.max(0, wait) + 5);
  }

  // The phrase highlighted in the page that holds it, shown (the chapter or spread opened when it is another).
  async show(clip = undefined) {
    super.show();
    // Played or paused: the page read is told (its playback-active class).
    if (this.told !== this.wantPlaying && this.at >= 0) this.mark();
    if (!clip) return;
    const reader = this.reader;
    const view = /** @type {any} */ (reader.view);
    // Only a new phrase turns the page: between two, the patron may read elsewhere (a late time update of the
    // audio element would otherwise bring them back).
    if (clip === this.shownClip) return;
    this.shownClip = clip;
    const onScreen = reader.fixed ? view.shown.includes(clip.item) : view.href === clip.href;
    if (!onScreen) await reader.goTo({ href: clip.href, fragment: clip.id, progression: 0 }, { quiet: true, save: false });
    this.phrase = await this.mark(true) ?? this.phrase;
    this.ui.escape.disabled = !clip.structure;
    if (!onScreen || !reader.fixed) reader.updateStatus({ quiet: true, save: false });
  }

  /** Tells each page of the screen its phrases and the one playing; `follow`: its page is shown. */
  async mark(follow = false) {
    const clip = this.clips[this.at];
    if (!clip || this.ui.bar.hidden) return null;
    this.told = this.wantPlaying;
    const answers = await Promise.all(this.frames().map((frame) => frame.ask({
      ids: this.idsOf(frame.href), active: frame.href === clip.href ? clip.id : null, activeClass: this.activeClass,
      playing: this.wantPlaying, playbackClass: this.playbackClass, follow: follow && !this.reader.fixed,
    })));
    return answers.find((a) => typeof a === 'string') ?? null;
  }

  /** The reader showed another screen (a turn, a chapter, a spread): its phrases are marked again. */
  onScreen() { if (this.at >= 0) this.mark(false); }

  /** A phrase tapped or entered in a page (`frame`): it plays from there. */
  async choose(id, frame) {
    if (this.at < 0 || !this.data) return;
    const page = this.reader.fixed ? /** @type {any} */ (this.reader.view).frames.find((p) => p.frame === frame) : null;
    const href = page ? this.reader.items[page.index]?.href : this.reader.view.href;
    const index = this.clips.findIndex((c) => c.href === href && c.id === id);
    if (index < 0) return;
    await this.cue(index);
    await this.play();
    await this.follow();
  }

  // Paused (by the patron, the sleep timer or Stop listening): the page read is no longer being played, even when
  // the audio element had already stopped between two files and says no pause.
  pause() {
    super.pause();
    if (this.at >= 0) this.mark();
  }

  setSkipping(on) {
    this.skipping = on;
    announce(on ? this.words.skipping : this.words.notSkipping);
  }

  // Escapability: on after the outermost table, list, figure or note the phrase playing is in.
  async escape() {
    const clip = this.clips[this.at];
    if (!clip?.structure) return announce(this.words.nothingToEscape);
    let last = this.at;
    while (last + 1 < this.clips.length && this.clips[last + 1].structure === clip.structure) last++;
    const next = this.step(last);
    if (next < 0) return this.finish();
    await this.cue(next);
    if (this.wantPlaying && this.audio.paused) await this.audio.play().catch(() => {});
    await this.follow();
    this.report();
    announce(this.words.escaped);
  }

  // Back or Forward: so many seconds along the narration, phrase after phrase.
  async skip(seconds) {
    if (this.at < 0) return;
    const direction = seconds < 0 ? -1 : 1;
    let index = this.at, time = this.audio.currentTime, left = Math.abs(seconds);
    for (;;) {
      const clip = this.clips[index];
      const end = Number.isFinite(clip.end) ? clip.end : this.audio.duration || time;
      const room = direction > 0 ? end - time : time - clip.begin;
      if (left < room) { time += direction * left; break; }
      const next = this.step(index, direction);
      if (next < 0) { time = direction > 0 ? Math.max(clip.begin, end - 0.01) : clip.begin; break; }
      left -= room;
      index = next;
      time = direction > 0 ? this.clips[index].begin : (Number.isFinite(this.clips[index].end) ? this.clips[index].end : this.clips[index].begin);
    }
    await this.cue(index, time);
    if (this.wantPlaying && this.audio.paused) await this.audio.play().catch(() => {});
    await this.follow();
    this.report();
    announce(`${seconds < 0 ? 'Back' : 'Forward'} ${spoken(Math.abs(seconds))}`);
  }

  async ended() { await this.follow(); }

  async grow() {}

  // The phrase heard is the reading place: a locator naming it (its fragment), with its words.
  report(leaving = false) {
    const clip = this.clips[this.at];
    if (!clip || !this.data) return;
    this.reportedAt = this.audio.currentTime;
    const item = this.reader.items[clip.item] ?? {};
    const progression = this.reader.fixed ? 0 : Math.max(0, Math.min(1, this.reader.view.progression || 0));
    /** @type {any} */
    const locator = { href: clip.href, type: item.type ?? 'application/xhtml+xml', locations: { progression, position: this.reader.page, fragments: [clip.id] } };
    if (item.title) locator.title = item.title;
    if (this.phrase) locator.text = { highlight: this.phrase };
    fetch('/api/reader/place', {
      method: 'POST', headers: { ...sessionHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ book: this.reader.bookID, locator }), keepalive: leaving,
    }).catch(() => {});
  }
}
