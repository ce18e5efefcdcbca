// The reader's settings. Font size, font and theme are the ones the command line stores (`shelf settings`), per
// book and for every book, the book's own values winning; the font size left unset follows the screen: 12 pt
// (100 %) on a small one, 14 pt (117 %) on a large one, as the requirements ask. Brightness, line spacing,
// margins and paged or scrolled belong to this browser and are kept in its storage, per book over global.

import { api } from '../api.js';

const HOST_KEYS = ['fontScale', 'font', 'theme', 'hyphens'];
const LOCAL_DEFAULTS = { brightness: 100, lineSpacing: '', margins: 2, flow: 'paginated' };
const smallScreen = () => window.matchMedia('(max-width: 40rem)').matches;

export class Settings {
  constructor(bookID, host) {
    this.bookID = bookID;
    this.host = host; // {global, book, defaults} from the API
    this.local = { global: read('shelf.reader.global'), book: read(`shelf.reader.book.${bookID}`) };
    /** @type {string | null} the flow the book declares for the item shown (set by the reader) */
    this.declaredFlow = null;
    /** Whether the book asks that its chapters follow each other as one scroll (set by the reader). */
    this.declaredContinuous = false;
  }

  /** The font scale's bounds: the host's one rule of the settings (its defaults document says them). */
  get scaleRange() {
    const d = this.host.defaults ?? {};
    return { min: d.fontScaleMin ?? 100, max: d.fontScaleMax ?? 100 };
  }

  get defaultScale() {
    const d = this.host.defaults ?? {};
    return smallScreen() ? (d.fontScaleSmallScreen ?? 100) : (d.fontScaleLargeScreen ?? 117);
  }

  // The values in force: book over global over default.
  get effective() {
    const { global = {}, book = {}, defaults = {} } = this.host;
    const value = (key, fallback) => book[key] ?? global[key] ?? fallback;
    const local = { ...LOCAL_DEFAULTS, ...this.local.global, ...this.local.book };
    return {
      fontScale: value('fontScale', this.defaultScale),
      font: value('font', defaults.font ?? 'publisher'),
      theme: value('theme', defaults.theme ?? 'day'),
      // Words broken at line ends: as the book's style sheet says (publisher), on (in its language) or off.
      hyphens: value('hyphens', defaults.hyphens ?? 'publisher'),
      brightness: Number(local.brightness),
      lineSpacing: String(local.lineSpacing),
      margins: Number(local.margins),
      flow: this.flowOf(this.declaredFlow),
      continuous: this.declaredContinuous,
    };
  }

  /** Paged or scrolled, for a chapter whose book declares `declared` (flow.js): the patron's choice for this book,
   * else what the book declares, else theirs for every book. */
  flowOf(declared) {
    const local = { ...LOCAL_DEFAULTS, ...this.local.global, ...this.local.book };
    return (this.local.book.flow ?? declared ?? local.flow) === 'scrolled' ? 'scrolled' : 'paginated';
  }

  // Sets values for this book: the command line's through the host, the others in this browser.
  async change(values) {
    const hostValues = {}, localValues = {};
    for (const [key, value] of Object.entries(values)) (HOST_KEYS.includes(key) ? hostValues : localValues)[key] = value;
    if (Object.keys(localValues).length) {
      this.local.book = { ...this.local.book, ...localValues };
      write(`shelf.reader.book.${this.bookID}`, this.local.book);
    }
    if (Object.keys(hostValues).length) {
      this.host.book = { ...this.host.book, ...hostValues };
      this.host = await api.post('/api/reader/settings', { book: this.bookID, ...hostValues });
    }
  }

  // Makes the values in force the ones of every book, and lets this book follow them.
  async useEverywhere() {
    const now = this.effective;
    this.local.global = { brightness: now.brightness, lineSpacing: now.lineSpacing, margins: now.margins, flow: now.flow };
    this.local.book = {};
    write('shelf.reader.global', this.local.global);
    write(`shelf.reader.book.${this.bookID}`, {});
    await api.post('/api/reader/settings', { fontScale: now.fontScale, font: now.font, theme: now.theme, hyphens: now.hyphens });
    this.host = await api.post('/api/reader/settings', { book: this.bookID, fontScale: 'default', font: 'default', theme: 'default', hyphens: 'default' });
  }

  // Forgets this book's own values.
  async resetBook() {
    this.local.book = {};
    write(`shelf.reader.book.${this.bookID}`, {});
    this.host = await api.post('/api/reader/settings', { book: this.bookID, fontScale: 'default', font: 'default', theme: 'default', hyphens: 'default' });
  }
}

function read(key) {
  try { return JSON.parse(localStorage.getItem(key) ?? '{}') ?? {}; } catch { return {}; }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: the values last for this page */ }
}
