// The browser's own audio element playing a book's tracks as shelf serves them (with Range requests), on one
// time line over the tracks. The host's listening session keeps the place: the position is reported to it as
// the book plays, on pause and on every move, so `shelf listen` goes on where the browser stopped. Nothing
// here ever starts playing unless the patron pressed play: not on load, not after a reload, not on a jump.
// A book whose parts are still arriving (a loan listened to as it downloads) is asked how far they are about once
// a second; playing into a part not here yet waits for it, saying so, and goes on once it has arrived.

import { Timeline } from './timeline.js';
import { sessionHeaders } from '../session.js';
import { notice } from '../notices.js';
import { spoken, useRules } from './words.js';

const REPORT_EVERY = 10;
const ASK_ARRIVALS_EVERY = 1000;
// The host's rules until a book brings them (GET /api/player, rules): `shelf listen` follows the same ones.
const HOST_RULES = { replayAfter: 5, resumeRewind: 2, sleepFade: { seconds: 5, curve: 'raised-cosine' } };

export class Player extends EventTarget {
  constructor(api) {
    super();
    this.api = api;
    this.audio = document.createElement('audio');
    this.audio.preload = 'metadata';
    this.audio.autoplay = false;
    this.audio.preservesPitch = true;
    this.audio.hidden = true;
    document.body.append(this.audio);
    this.book = null;
    this.track = -1;
    this.rate = 1;
    this.volume = 1;
    this.step = 30;
    this.sleep = null; // {mode: 'minutes', left} | {mode: 'chapter', chapter}
    this.wantPlaying = false;
    // Playback stopped where the listener was and no move has chosen a place since: the next play replays a little.
    this.stoppedListening = false;
    // When it stopped (performance.now()), for the rule that replays only after a stop longer than `replayAfter`.
    this.stoppedAt = -Infinity;
    this.rules = HOST_RULES;
    // Moves under way: the audio element reports times of the track it leaves meanwhile, which say nothing.
    this.moving = 0;
    // The place inside a track that cannot play (still downloading, missing, damaged), which the element does not hold.
    this.heldOffset = 0;
    // The track playback waits for (still downloading), the patron having asked it to play; null when none.
    this.waitingFor = null;
    // The parts still arriving, in the host's words (GET /api/player/arrivals, `arriving`); null once all are here.
    this.arriving = null;
    this.arrivalsTimer = null;
    this.audio.addEventListener('timeupdate', () => this.tick());
    this.audio.addEventListener('ended', () => this.trackEnded());
    this.audio.addEventListener('play', () => this.emit('state'));
    this.audio.addEventListener('pause', () => this.emit('state'));
    this.setUpMediaSession();
    window.addEventListener('pagehide', () => this.report(true));
  }

  emit(type, detail = {}) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  get playing() { return !this.audio.paused; }
  // Waiting for a part to arrive before playing on.
  get waiting() { return this.waitingFor !== null; }
  get position() {
    if (!this.book) return 0;
    return this.timeline.starts[this.track] + (this.held(this.track) ? this.heldOffset : (this.audio.currentTime || 0));
  }

  // Why track `index` cannot play now, in the host's words; null when it can.
  held(index) {
    const track = this.timeline?.tracks[index];
    return track && track.available === false ? (track.why || notice('listening.partUnplayable')) : null;
  }
  get chapter() { return this.book ? this.timeline.chapterAt(this.position) : null; }

  // Opens a book (GET /api/player) paused at the place the host keeps.
  async open(bookID) {
    if (this.book?.id === bookID) return this.book;
    this.pause();
    const data = await this.api(`/api/player?book=${encodeURIComponent(bookID)}`);
    this.book = { id: bookID, ...data.book, cover: data.cover };
    this.timeline = new Timeline(data.tracks, data.chapters);
    this.arriving = data.arriving ?? null;
    this.askArrivals();
    this.rules = { ...HOST_RULES, ...(data.rules ?? {}) };
    useRules(data.rules);
    this.track = -1;
    this.wantPlaying = false;
    await this.seek(data.position?.seconds ?? 0, { report: false });
    // The place the book opens at is where listening stopped, as long ago as the host saved it (never: long ago).
    this.stoppedListening = true;
    const ago = data.position?.savedSecondsAgo;
    this.stoppedAt = typeof ago === 'number' ? performance.now() - ago * 1000 : -Infinity;
    this.updateMediaMetadata();
    this.emit('book');
    return this.book;
  }

  async load(track) {
    if (track === this.track) return;
    this.track = track;
    // A track that cannot play is not given to the element, which would only fail ("no supported sources").
    if (this.held(track)) {
      this.audio.pause();
      return;
    }
    const loaded = new Promise((resolve) => this.audio.addEventListener('loadedmetadata', resolve, { once: true }));
    this.audio.src = this.timeline.tracks[track].url;
    this.audio.playbackRate = this.rate;
    this.audio.defaultPlaybackRate = this.rate;
    this.audio.load();
    await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }

  // While parts arrive: asks how far they are, takes the tracks that came (going on with the one waited for) and
  // asks again a second later, until every part is here.
  askArrivals() {
    window.clearTimeout(this.arrivalsTimer);
    if (!this.arriving || !this.book) return;
    const book = this.book.id;
    this.arrivalsTimer = window.setTimeout(async () => {
      let data = null;
      try { data = await this.api(`/api/player/arrivals?book=${encodeURIComponent(book)}`); } catch { /* asked again below */ }
      if (this.book?.id !== book) return;
      if (data) await this.arrived(data);
      this.askArrivals();
    }, ASK_ARRIVALS_EVERY);
  }

  async arrived(data) {
    const before = this.arriving;
    data.tracks.forEach((fresh, i) => {
      const track = this.timeline.tracks[i];
      if (track) Object.assign(track, { available: fresh.available, state: fresh.state, why: fresh.why, wait: fresh.wait });
    });
    data.chapters.forEach((fresh, i) => { if (this.timeline.chapters[i]) this.timeline.chapters[i].available = fresh.available; });
    this.arriving = data.arriving ?? null;
    const here = (doc) => (doc ? doc.here : this.timeline.tracks.length);
    this.emit('arrivals', { came: here(this.arriving) > here(before) });
    // The part playback waits for will not come (its download gave up): said, and nothing waits any more.
    if (this.waiting && this.timeline.tracks[this.waitingFor].state === 'unplayable') {
      const why = this.held(this.waitingFor);
      this.waitingFor = null;
      this.wantPlaying = false;
      this.emit('held', { why });
      this.emit('state');
    }
    // The part playback waits for is here: on from where the patron was in it.
    if (this.waiting && !this.held(this.waitingFor)) {
      const offset = this.heldOffset;
      this.waitingFor = null;
      this.moving++;
      try {
        const track = this.track;
        this.track = -1;
        await this.load(track);
        this.audio.currentTime = offset;
        if (this.wantPlaying) await this.audio.play().catch(() => { this.wantPlaying = false; });
      } finally {
        this.moving--;
      }
      this.emit('state');
    }
  }

  // Waits for track `index`, still downloading, to play on once it is here; says so.
  waitFor(index) {
    this.waitingFor = index;
    this.wantPlaying = true;
    this.emit('waiting', { why: this.timeline.tracks[index].wait || this.held(index) });
    this.emit('state');
  }

  async seek(seconds, { report = true } = {}) {
    const { track, offset } = this.timeline.locate(seconds);
    const resume = this.wantPlaying;
    if (this.waitingFor !== track) this.waitingFor = null;
    // A move while paused starts exactly where the patron went.
    this.stoppedListening = false;
    this.moving++;
    try {
      await this.load(track);
      if (this.held(track)) {
        this.heldOffset = offset;
        if (resume && this.timeline.tracks[track].state === 'downloading') {
          this.waitFor(track);
        } else if (resume) {
          this.wantPlaying = false;
          this.emit('held', { why: this.held(track) });
          this.emit('state');
        }
      } else {
        this.audio.currentTime = offset;
        if (resume && this.audio.paused) await this.audio.play().catch(() => {});
      }
    } finally {
      this.moving--;
    }
    // A move the patron made says where it landed itself; the chapter it lands in is not announced again.
    if (this.chapter?.index !== this.lastChapter) {
      this.lastChapter = this.chapter?.index;
      this.emit('chapter', { moved: true });
    }
    this.emit('time');
    if (report) this.report();
  }

  async play() {
    if (!this.book) return;
    if (this.held(this.track) && this.timeline.tracks[this.track].state === 'downloading') return this.waitFor(this.track);
    const why = this.held(this.track);
    if (why) throw new Error(why);
    // The host's rule: only a stop longer than `replayAfter` replays the seconds before it.
    const away = (performance.now() - this.stoppedAt) / 1000;
    if (this.stoppedListening && away > this.rules.replayAfter) {
      await this.seek(Math.max(0, this.position - this.rules.resumeRewind), { report: false });
    }
    this.stoppedListening = false;
    this.wantPlaying = true;
    this.audio.volume = this.volume;
    try { await this.audio.play(); } catch (error) { this.wantPlaying = false; throw error; }
    this.reportedAt = this.position;
  }

  pause() {
    this.wantPlaying = false;
    if (this.waiting) {
      this.waitingFor = null;
      this.emit('state');
    }
    if (!this.audio.paused) {
      this.audio.pause();
      this.stoppedListening = true;
      this.stoppedAt = performance.now();
    }
    if (this.book) this.report();
  }

  toggle() { return this.playing || this.waiting ? this.pause() : this.play(); }

  // Returns where it landed, in words, as one message: "forward 30 seconds, 24 minutes 12 seconds" (and the
  // chapter, when it is a new one); the distance is the one moved, which the start or the end may cut short.
  async skip(seconds) {
    const from = this.position;
    return this.moveTo(Math.max(0, Math.min(this.timeline.duration, from + seconds)), (moved) => {
      if (Math.abs(moved) < 0.5) return `already at the ${seconds < 0 ? 'start' : 'end'} of the book`;
      return `${moved < 0 ? 'back' : 'forward'} ${spoken(Math.abs(moved))}`;
    });
  }

  // To the start (Home) or the very end (End) of the book, said as `skip` says a move.
  async toStart() { return this.moveTo(0, () => 'start of the book'); }
  async toEnd() { return this.moveTo(this.timeline.duration, () => 'end of the book'); }

  async moveTo(seconds, how) {
    const from = this.position, before = this.chapter?.index;
    await this.seek(seconds);
    const chapter = this.chapter;
    return `${how(this.position - from)}, ${spoken(this.position)}`
      + (chapter && chapter.index !== before ? `, ${chapter.title}` : '');
  }

  // Jumps to a chapter's start; false (and nothing moves) when its part is still downloading.
  async goToChapter(index) {
    const chapter = this.timeline.chapters[index];
    if (!chapter || !this.timeline.available(chapter)) return false;
    if (this.sleep?.mode === 'chapter') this.sleep.chapter = index;
    await this.seek(chapter.start + 0.001);
    return true;
  }

  setRate(rate) {
    this.rate = Math.max(0.5, Math.min(3, Math.round(rate * 20) / 20));
    this.audio.playbackRate = this.rate;
    this.audio.defaultPlaybackRate = this.rate;
    this.emit('settings');
  }

  setVolume(volume) {
    this.volume = Math.max(0, Math.min(1, volume));
    this.audio.volume = this.volume;
    this.emit('settings');
  }

  // Sleep after `minutes` of listening, at the end of this chapter ('chapter'), or never (null).
  setSleep(mode) {
    this.audio.volume = this.volume;
    if (mode === null) this.sleep = null;
    else if (mode === 'chapter') this.sleep = { mode: 'chapter', chapter: this.chapter.index };
    else this.sleep = { mode: 'minutes', left: Number(mode) * 60, last: null };
    this.emit('sleep');
  }

  // Seconds of listening left before the sleep timer stops playback, at the speed in force.
  get sleepLeft() {
    if (!this.sleep) return null;
    if (this.sleep.mode === 'minutes') return this.sleep.left;
    const chapter = this.timeline.chapters[this.sleep.chapter];
    return Math.max(0, (chapter.start + chapter.duration - this.position) / this.rate);
  }

  tick() {
    if (!this.book || this.moving) return;
    const now = performance.now();
    if (this.sleep && this.playing) {
      if (this.sleep.mode === 'minutes') {
        if (this.sleep.last !== null) this.sleep.left -= (now - this.sleep.last) / 1000;
        this.sleep.last = now;
      }
      const left = this.sleepLeft;
      if (left <= 0) return this.sleepEnds();
      // The last seconds fade out, so the listener is not woken by a sudden stop: the host's curve and length.
      this.audio.volume = this.volume * this.sleepGain(left);
    } else if (this.sleep) {
      this.sleep.last = null;
    }
    if (this.playing && Math.abs(this.position - (this.reportedAt ?? 0)) >= REPORT_EVERY) this.report();
    const chapter = this.chapter;
    if (chapter?.index !== this.lastChapter) {
      this.lastChapter = chapter?.index;
      this.emit('chapter');
    }
    this.emit('time');
  }

  // The sleep timer's gain with `left` seconds to go, by the host's rule (rules.sleepFade).
  sleepGain(left) {
    const fade = this.rules.sleepFade ?? HOST_RULES.sleepFade;
    if (!(left < fade.seconds)) return 1;
    const x = Math.max(0, left / fade.seconds);
    return fade.curve === 'raised-cosine' ? 0.5 - 0.5 * Math.cos(Math.PI * x) : x;
  }

  sleepEnds() {
    this.pause();
    this.sleep = null;
    this.audio.volume = this.volume;
    this.emit('sleep', { ended: true });
  }

  // On with the next track that can play: one that cannot be had or played is said and passed over, as `shelf
  // listen` does; one still downloading stops playback there, said too.
  async trackEnded() {
    let next = this.track + 1;
    while (next < this.timeline.tracks.length && this.timeline.tracks[next].state === 'unplayable') {
      this.emit('held', { why: this.held(next), passed: true });
      next++;
    }
    if (next < this.timeline.tracks.length && this.wantPlaying) {
      if (this.held(next) && this.timeline.tracks[next].state === 'downloading') {
        await this.load(next);
        this.heldOffset = 0;
        return this.waitFor(next);
      }
      if (this.held(next)) {
        this.emit('held', { why: this.held(next) });
        return this.pause();
      }
      await this.load(next);
      this.audio.currentTime = 0;
      await this.audio.play().catch(() => {});
    } else {
      this.wantPlaying = false;
      this.report();
      this.emit('state');
    }
  }

  // Tells the host where the book is; `leaving`: the page is going away, so the request must outlive it.
  report(leaving = false) {
    if (!this.book) return;
    this.reportedAt = this.position;
    const body = JSON.stringify({ book: this.book.id, seconds: Math.round(this.position * 1000) / 1000, playing: this.playing });
    fetch('/api/player/position', { method: 'POST', headers: { ...sessionHeaders(), 'Content-Type': 'application/json' }, body, keepalive: leaving })
      .catch(() => this.emit('report-failed'));
  }

  // Media keys and the desktop's media controls: title, author, chapter, cover; play, pause, seek, chapters.
  setUpMediaSession() {
    const session = navigator.mediaSession;
    if (!session) return;
    const handlers = {
      play: () => this.play(), pause: () => this.pause(),
      seekbackward: () => this.skip(-this.step), seekforward: () => this.skip(this.step),
      previoustrack: () => this.goToChapter(Math.max(0, this.chapter.index - 1)),
      nexttrack: () => this.goToChapter(this.chapter.index + 1),
      seekto: (details) => this.seek(this.timeline.starts[this.track] + details.seekTime),
    };
    for (const [action, handler] of Object.entries(handlers)) {
      try { session.setActionHandler(/** @type {MediaSessionAction} */ (action), handler); } catch { /* an action this browser does not know */ }
    }
    this.addEventListener('chapter', () => this.updateMediaMetadata());
    this.addEventListener('state', () => { session.playbackState = this.playing ? 'playing' : 'paused'; });
  }

  updateMediaMetadata() {
    if (!navigator.mediaSession || !this.book || typeof MediaMetadata === 'undefined') return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: this.book.title, artist: (this.book.authors ?? []).join(', '), album: this.chapter?.title ?? '',
      artwork: this.book.cover ? [{ src: this.book.cover }] : [],
    });
  }
}
