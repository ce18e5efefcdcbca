// The browser's own audio element playing a book's tracks as shelf serves them (with Range requests), on one
// time line over the tracks. The host's listening session keeps the place: the position is reported to it as
// the book plays, on pause and on every move, so `shelf listen` goes on where the browser stopped. Nothing
// here ever starts playing unless the patron pressed play: not on load, not after a reload, not on a jump.

import { Timeline } from './timeline.js';
import { sessionHeaders } from '../session.js';
import { spoken } from './words.js';

const FADE_SECONDS = 10;
// Seconds replayed when playback resumes after a stop (a pause, the sleep timer, the place the book opened at), as
// `shelf play` and `shelf listen` do (PlaybackEngine's resumeRewind): the listener hears again where they were.
const RESUME_REWIND = 2;
const REPORT_EVERY = 10;

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
    this.audio.addEventListener('timeupdate', () => this.tick());
    this.audio.addEventListener('ended', () => this.trackEnded());
    this.audio.addEventListener('play', () => this.emit('state'));
    this.audio.addEventListener('pause', () => this.emit('state'));
    this.setUpMediaSession();
    window.addEventListener('pagehide', () => this.report(true));
  }

  emit(type, detail = {}) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  get playing() { return !this.audio.paused; }
  get position() { return this.book ? this.timeline.starts[this.track] + (this.audio.currentTime || 0) : 0; }
  get chapter() { return this.book ? this.timeline.chapterAt(this.position) : null; }

  // Opens a book (GET /api/player) paused at the place the host keeps.
  async open(bookID) {
    if (this.book?.id === bookID) return this.book;
    this.pause();
    const data = await this.api(`/api/player?book=${encodeURIComponent(bookID)}`);
    this.book = { id: bookID, ...data.book, cover: data.cover };
    this.timeline = new Timeline(data.tracks, data.chapters);
    this.track = -1;
    this.wantPlaying = false;
    await this.seek(data.position?.seconds ?? 0, { report: false });
    this.stoppedListening = true;
    this.updateMediaMetadata();
    this.emit('book');
    return this.book;
  }

  async load(track) {
    if (track === this.track) return;
    this.track = track;
    const loaded = new Promise((resolve) => this.audio.addEventListener('loadedmetadata', resolve, { once: true }));
    this.audio.src = this.timeline.tracks[track].url;
    this.audio.playbackRate = this.rate;
    this.audio.defaultPlaybackRate = this.rate;
    this.audio.load();
    await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }

  async seek(seconds, { report = true } = {}) {
    const { track, offset } = this.timeline.locate(seconds);
    const resume = this.wantPlaying;
    // A move while paused starts exactly where the patron went.
    this.stoppedListening = false;
    await this.load(track);
    this.audio.currentTime = offset;
    if (resume && this.audio.paused) await this.audio.play().catch(() => {});
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
    if (this.stoppedListening) await this.seek(Math.max(0, this.position - RESUME_REWIND), { report: false });
    this.wantPlaying = true;
    this.audio.volume = this.volume;
    try { await this.audio.play(); } catch (error) { this.wantPlaying = false; throw error; }
    this.reportedAt = this.position;
  }

  pause() {
    this.wantPlaying = false;
    if (!this.audio.paused) {
      this.audio.pause();
      this.stoppedListening = true;
    }
    if (this.book) this.report();
  }

  toggle() { return this.playing ? this.pause() : this.play(); }

  // Returns where it landed, in words: "forward 30 seconds, 24 minutes 12 seconds" (and the chapter, when new).
  async skip(seconds) {
    const before = this.chapter?.index;
    await this.seek(Math.max(0, Math.min(this.timeline.duration, this.position + seconds)));
    const chapter = this.chapter;
    return `${seconds < 0 ? 'back' : 'forward'} ${spoken(Math.abs(seconds))}, ${spoken(this.position)}`
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
    if (!this.book) return;
    const now = performance.now();
    if (this.sleep && this.playing) {
      if (this.sleep.mode === 'minutes') {
        if (this.sleep.last !== null) this.sleep.left -= (now - this.sleep.last) / 1000;
        this.sleep.last = now;
      }
      const left = this.sleepLeft;
      if (left <= 0) return this.sleepEnds();
      // The last seconds fade out, so the listener is not woken by a sudden stop.
      this.audio.volume = left < FADE_SECONDS ? this.volume * Math.max(0, left / FADE_SECONDS) : this.volume;
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

  sleepEnds() {
    this.pause();
    this.sleep = null;
    this.audio.volume = this.volume;
    this.emit('sleep', { ended: true });
  }

  async trackEnded() {
    if (this.track + 1 < this.timeline.tracks.length && this.wantPlaying) {
      if (this.timeline.tracks[this.track + 1].available === false) return this.pause();
      await this.load(this.track + 1);
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
