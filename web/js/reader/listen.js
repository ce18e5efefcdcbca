// Listening to the book in the reader: the host reads it aloud (its speech plugin, from the reader's place) and
// this page's audio element plays the tracks as they are spoken, served as audiobook tracks are (never the
// browser's own speech synthesis, which a headless or minimal browser lacks). The sentence heard is highlighted
// in the book's page and the page follows it, chapter after chapter; in a fixed-layout book each page's text is
// read, the sentence highlighted on the page of the spread that holds it, and the spread turns with the voice.
// Never starts by itself: Listen opens the controls, Play plays. The place heard goes back to the host, which
// keeps it as the book's reading place.
// See README "Listening to a book" and the /api/listen routes (web/openapi/listen.json).

import { api } from '../api.js';
import { notice, noticeWith } from '../notices.js';
import { h } from '../dom.js';
import { announce, alertNow } from './announce.js';
import { spoken, speedWords } from '../player/words.js';
import { sessionHeaders } from '../session.js';

const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3];
const SLEEP_CHOICES = [['', 'Off'], ['5', '5 minutes'], ['15', '15 minutes'], ['30', '30 minutes'], ['45', '45 minutes'],
  ['60', '60 minutes'], ['chapter', 'End of chapter']];
const STEP = 30;
// How often the page asks the host what more is spoken, while a track is still being spoken.
const POLL_MS = 500;
// Seconds before the end of the sound loaded: a longer part of the track is loaded (the host speaks ahead).
const AHEAD = 3;
const REPORT_EVERY = 10;

export class Listening {
  constructor(reader) {
    this.reader = reader;
    this.audio = document.createElement('audio');
    this.audio.preload = 'auto';
    this.audio.autoplay = false;
    this.audio.preservesPitch = true;
    this.audio.hidden = true;
    this.audio.id = 'listen-audio';
    document.body.append(this.audio);
    this.data = null; // the host's answer: {session, start, tracks: [{index, href, title, seconds, frames, complete, url}]}
    this.sentences = new Map(); // track -> [{time, offset, length, progression, text}]
    this.final = new Set(); // tracks whose every sentence the page has (the host finished speaking them)
    this.track = -1;
    this.loaded = 0; // frames of the track the audio element holds
    this.rate = 1;
    this.sleep = null; // {mode: 'minutes', left, last} | {mode: 'chapter', track}
    this.wantPlaying = false;
    this.shown = null; // the sentence highlighted
    this.build();
    this.audio.addEventListener('timeupdate', () => this.tick());
    this.audio.addEventListener('seeked', () => this.follow());
    this.audio.addEventListener('pause', () => { this.follow(); this.show(); });
    this.audio.addEventListener('play', () => this.show());
    this.audio.addEventListener('ended', () => this.ended());
    window.addEventListener('pagehide', () => this.report(true));
  }

  // The controls, in a bar under the reader's top bar, hidden until Listen is pressed.
  build() {
    const ui = this.ui = {};
    ui.play = h('button', { type: 'button', id: 'listen-play', onclick: () => this.toggle() }, 'Play');
    ui.back = h('button', { type: 'button', id: 'listen-back', 'aria-label': `Back ${spoken(STEP)}`, onclick: () => this.skip(-STEP) }, `Back ${STEP} s`);
    ui.forward = h('button', { type: 'button', id: 'listen-forward', 'aria-label': `Forward ${spoken(STEP)}`, onclick: () => this.skip(STEP) }, `Forward ${STEP} s`);
    ui.speed = h('select', { id: 'listen-speed' }, SPEEDS.map((s) => h('option', { value: String(s), selected: s === 1 }, `${s}×`)));
    ui.sleep = h('select', { id: 'listen-sleep' }, SLEEP_CHOICES.map(([value, words]) => h('option', { value }, words)));
    ui.status = h('span', { id: 'listen-status', class: 'listen-status' });
    ui.close = h('button', { type: 'button', id: 'listen-close', onclick: () => this.close() }, 'Stop listening');
    ui.bar = h('div', { id: 'listen-bar', class: 'notice listen-bar', role: 'group', 'aria-label': 'Listening', hidden: true },
      ui.back, ui.play, ui.forward,
      h('label', {}, 'Speed ', ui.speed), h('label', {}, 'Sleep timer ', ui.sleep), ui.status, ui.close);
    ui.speed.addEventListener('change', () => this.setRate(Number(ui.speed.value)));
    ui.sleep.addEventListener('change', () => this.setSleep(ui.sleep.value));
    document.getElementById('book')?.before(ui.bar);
    document.getElementById('listen')?.setAttribute('aria-controls', 'listen-bar');
  }

  get playing() { return !this.audio.paused; }
  get trackInfo() { return this.data?.tracks.find((t) => t.index === this.track) ?? null; }

  // Listen: the controls open and the host starts speaking from the page shown; Play plays.
  async open() {
    const bar = this.ui.bar;
    if (!bar.hidden) { this.ui.play.focus(); return; }
    bar.hidden = false;
    document.getElementById('listen')?.setAttribute('aria-expanded', 'true');
    this.ui.play.disabled = true;
    this.ui.status.textContent = notice('listening.preparing');
    // The page is laid out again for the bar's room while the host gets ready.
    const relayout = this.relayout();
    try {
      // The host starts at the reading place: the page shown is saved first.
      await api.post('/api/reader/place', { book: this.reader.bookID, locator: await this.reader.screenLocator() }).catch(() => {});
      const data = await api.post('/api/listen', { book: this.reader.bookID });
      await relayout;
      this.take(data);
      this.track = -1;
      await this.load(data.start, 0);
      this.ui.play.disabled = false;
      this.ui.status.textContent = data.said;
      announce(data.said);
      this.ui.play.focus();
      this.poll();
    } catch (error) {
      this.ui.status.textContent = error.message + (error.hint ? ` ${error.hint}` : '');
      alertNow(noticeWith('listening.cannotReadAloud', this.ui.status.textContent));
    }
  }

  close() {
    this.pause();
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
    this.ui.bar.hidden = true;
    document.getElementById('listen')?.setAttribute('aria-expanded', 'false');
    for (const frame of this.pagesShown()) frame.speak({ text: '' }).catch(() => {});
    this.shown = null;
    this.relayout();
    document.getElementById('listen')?.focus();
    announce(notice('listening.stopped'));
  }

  // Room for the bar: a reflowable chapter is laid out again, a fixed-layout spread drawn smaller (not loaded again).
  relayout() {
    const view = /** @type {any} */ (this.reader.view);
    return this.reader.fixed ? view.fit() : view.relayout?.();
  }

  /**
   * The frames of the screen, each with the reading-order href it shows and a way to tell it the sentence heard:
   * the spread's pages in a fixed-layout book (drawn whole: no page of theirs to turn to).
   * @returns {{href: string, speak: (data: object) => Promise<any>}[]}
   */
  pagesShown() {
    const view = /** @type {any} */ (this.reader.view);
    if (this.reader.fixed) {
      return (view.frames ?? []).map((page) => ({ href: this.reader.items[page.index]?.href, speak: (data) => page.channel.call('speak', data) }));
    }
    return view.href ? [{ href: view.href, speak: (data) => view.ask('speak', data) }] : [];
  }

  // The host's answer: the tracks as spoken so far, and sentences of one track.
  take(data) {
    if (this.data && data.session !== this.data.session) return;
    this.data = { ...this.data, ...data };
    const list = this.sentences.get(data.track) ?? [];
    if (data.from === list.length) list.push(...data.sentences);
    this.sentences.set(data.track, list);
    // The tracks are read before the sentences: a track whole then had every sentence.
    if (data.tracks.find((t) => t.index === data.track)?.complete && data.from <= list.length) this.final.add(data.track);
  }

  // Asks the host what more is spoken while the track playing (or the next) is still being spoken.
  poll() {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(async () => {
      if (this.ui.bar.hidden || !this.data) return;
      // The track playing until the page has all of it, then the next (which the host speaks meanwhile).
      const wanted = this.final.has(this.track) ? this.track + 1 : this.track;
      if (!this.final.has(wanted) && this.data.tracks.some((t) => t.index === wanted)) {
        try {
          this.take(await api.get('/api/listen', { book: this.reader.bookID, track: wanted, from: this.sentences.get(wanted)?.length ?? 0 }));
          this.grow();
        } catch { /* asked again at the next poll */ }
      }
      this.poll();
    }, POLL_MS);
  }

  // Loads `frames` of a track as spoken so far (all of it when the host has finished it), at `time` seconds.
  async load(track, time) {
    const info = this.data.tracks.find((t) => t.index === track);
    if (!info) return false;
    this.track = track;
    this.loaded = info.frames;
    const loaded = new Promise((resolve) => this.audio.addEventListener('loadedmetadata', resolve, { once: true }));
    this.audio.src = `${info.url}?frames=${info.frames}`;
    this.audio.playbackRate = this.rate;
    this.audio.defaultPlaybackRate = this.rate;
    this.audio.load();
    await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 5000))]);
    this.audio.currentTime = Math.min(time, this.audio.duration || time);
    return true;
  }

  // More of the track playing is spoken than the audio element holds: near the end of what it holds, it takes
  // the longer part, at the same time (the host speaks faster than it is heard, so this happens a few times at
  // the start of a track only).
  async grow() {
    const info = this.trackInfo;
    if (!info || info.frames <= this.loaded || this.growing) return;
    // Far from the end of what it holds, it plays on (taking more costs a moment of sound).
    const left = (this.audio.duration || 0) - this.audio.currentTime;
    if (left > AHEAD && !this.audio.ended) return;
    this.growing = true;
    try {
      const resume = this.wantPlaying;
      await this.load(this.track, this.audio.currentTime);
      if (resume) await this.audio.play().catch(() => {});
    } finally { this.growing = false; }
  }

  async play() {
    if (!this.data) return;
    this.wantPlaying = true;
    try { await this.audio.play(); } catch (error) { this.wantPlaying = false; alertNow(noticeWith('listening.cannotStart', error.message)); }
    this.reportedAt = this.audio.currentTime;
  }

  pause() {
    this.wantPlaying = false;
    if (!this.audio.paused) this.audio.pause();
    if (this.data) this.report();
  }

  toggle() { return this.playing ? this.pause() : this.play(); }

  async skip(seconds) {
    if (!this.data) return;
    const info = this.trackInfo;
    const at = this.audio.currentTime + seconds;
    const next = this.data.tracks.find((t) => t.index === this.track + 1);
    if (at > (this.audio.duration || 0) && info && info.frames > this.loaded) {
      // Further than the audio element holds, in what the host has spoken since.
      await this.load(this.track, at);
    } else if (at > (this.audio.duration || 0) && info?.complete && next?.frames) {
      await this.load(next.index, 0);
    } else {
      this.audio.currentTime = Math.max(0, Math.min(this.audio.duration || 0, at));
    }
    if (this.wantPlaying && this.audio.paused) await this.audio.play().catch(() => {});
    this.follow();
    this.report();
    announce(`${seconds < 0 ? 'Back' : 'Forward'} ${spoken(Math.abs(seconds))}`);
  }

  setRate(rate) {
    this.rate = rate;
    this.audio.playbackRate = rate;
    this.audio.defaultPlaybackRate = rate;
    announce(speedWords(rate));
  }

  setSleep(value) {
    if (value === '') this.sleep = null;
    else if (value === 'chapter') this.sleep = { mode: 'chapter', track: this.track };
    else this.sleep = { mode: 'minutes', left: Number(value) * 60, last: null };
    announce(value === '' ? 'Sleep timer: off' : `Sleep timer: ${value === 'chapter' ? 'end of chapter' : `${value} minutes`}`);
  }

  sleepEnds() {
    this.pause();
    this.sleep = null;
    this.ui.sleep.value = '';
    announce(notice('listening.sleepStopped'));
  }

  tick() {
    if (this.sleep?.mode === 'minutes' && this.playing) {
      const now = performance.now();
      if (this.sleep.last !== null) this.sleep.left -= (now - this.sleep.last) / 1000;
      this.sleep.last = now;
      if (this.sleep.left <= 0) return this.sleepEnds();
    } else if (this.sleep?.mode === 'minutes') {
      this.sleep.last = null;
    }
    if (this.playing && Math.abs(this.audio.currentTime - (this.reportedAt ?? 0)) >= REPORT_EVERY) this.report();
    this.follow();
    this.grow();
  }

  async ended() {
    const info = this.trackInfo;
    if (!info?.complete || this.loaded < info.frames) return this.grow();
    if (this.sleep?.mode === 'chapter') return this.sleepEnds();
    if (!this.wantPlaying) return;
    // A page with nothing to read (a picture with no words) is whole and silent: the next one is read.
    const next = this.data.tracks.find((t) => t.index > this.track && !(t.complete && t.frames === 0));
    if (!next || next.frames === 0) {
      this.wantPlaying = false;
      this.report();
      this.show();
      return next ? undefined : announce(notice('listening.ended'));
    }
    await this.load(next.index, 0);
    await this.audio.play().catch(() => {});
    announce(next.title ?? 'Next chapter');
  }

  // The sentence whose sound is playing, highlighted in the book; the page (and the chapter) follows it.
  sentenceAt(track, time) {
    const list = this.sentences.get(track) ?? [];
    let found = null;
    for (const sentence of list) {
      if (sentence.time <= time + 0.005) found = sentence; else break;
    }
    return found;
  }

  async follow() {
    if (!this.data || this.following) return;
    const sentence = this.sentenceAt(this.track, this.audio.currentTime);
    const href = this.trackInfo?.href;
    if (!sentence || !href || (sentence === this.shown && this.pagesShown().some((frame) => frame.href === href))) return;
    this.following = true;
    try {
      if (!this.pagesShown().some((frame) => frame.href === href)) {
        await this.reader.goTo({ href, progression: sentence.progression }, { quiet: true, save: false });
      }
      // Highlighted on the page that holds it; the spread's other page shows none.
      await Promise.all(this.pagesShown().map((frame) => frame.speak(frame.href === href
        ? { text: sentence.text, progression: sentence.progression } : { text: '' })));
      this.shown = sentence;
      this.reader.updateStatus({ quiet: true, save: false });
    } finally { this.following = false; }
    // The time may have moved on while the page turned.
    if (this.sentenceAt(this.track, this.audio.currentTime) !== this.shown) this.follow();
  }

  show() {
    this.ui.play.textContent = this.playing ? 'Pause' : 'Play';
    if (this.track >= 0 && (this.playing || this.audio.currentTime > 0)) {
      this.ui.status.textContent = `${this.playing ? 'Reading' : 'Paused'}: ${this.trackInfo?.title ?? 'this chapter'}`;
    }
  }

  // Tells the host where listening is; `leaving`: the page is going away, so the request must outlive it.
  report(leaving = false) {
    if (!this.data || this.track < 0) return;
    this.reportedAt = this.audio.currentTime;
    const body = { book: this.reader.bookID, track: this.track, seconds: Math.round(this.audio.currentTime * 1000) / 1000, playing: this.playing };
    fetch('/api/listen/position', { method: 'POST', headers: { ...sessionHeaders(), 'Content-Type': 'application/json' }, body: JSON.stringify(body), keepalive: leaving })
      .catch(() => {});
  }
}
