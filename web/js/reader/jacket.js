// The book's jacket on its first open (issue 37, seed 002): its cover, title and author, or, for a book without a
// cover, its first spine item; one action (the focused button, the next-page key, a tap on the button) goes to
// chapter one, where `shelf read` opens the book. Later opens go where the patron left off, without a jacket.
// The jacket is the app's own page over the reading area: its cover is loaded from the app's origin (`ownBase`),
// as the app's pages load images from their own origin only.

import { h } from '../dom.js';

/** The href of the manifest's `cover` resource, or null. */
export function coverHref(manifest) {
  const links = [...(manifest.resources ?? []), ...(manifest.links ?? [])];
  const cover = links.find((link) => [].concat(link.rel ?? []).includes('cover'));
  return cover?.href ?? null;
}

/** The authors a Readium manifest names (a name, an object with a name, or a list of either), in words. */
export function authorWords(metadata) {
  const names = [].concat(metadata?.author ?? []).map((a) => (typeof a === 'string' ? a : a?.name)).filter(Boolean);
  return names.map((name) => (typeof name === 'string' ? name : Object.values(name)[0])).join(', ');
}

export class Jacket {
  /**
   * @param {HTMLElement} viewport the reading area
   * @param {{title: string, author: string, cover: string | null}} book the cover's URL, or null: the first
   *   spine item is shown in the reading area, and the jacket is its button alone
   * @param {() => void} begin goes to chapter one
   */
  constructor(viewport, book, begin) {
    this.viewport = viewport;
    this.begin = begin;
    const button = h('button', { type: 'button', class: 'begin' }, 'Start reading');
    button.addEventListener('click', () => begin());
    this.element = book.cover
      ? h('section', { class: 'jacket', 'aria-labelledby': 'jacket-title' },
        h('img', { src: book.cover, alt: `Cover of ${book.title}` }),
        h('h2', { id: 'jacket-title' }, book.title),
        book.author ? h('p', { class: 'author' }, book.author) : null,
        button)
      : h('section', { class: 'jacket-bar', 'aria-label': 'The book begins' }, button);
    this.button = button;
  }

  /** Whether the jacket is the cover over the reading area (chapter one laid out, hidden, under it). */
  get covers() { return this.element.classList.contains('jacket'); }

  show() {
    // The chapter laid out under a cover is out of reach (Tab, a screen reader) until the patron begins.
    if (this.covers) for (const child of this.viewport.children) child.setAttribute('inert', '');
    this.viewport.append(this.element);
    this.button.focus();
  }

  close() {
    for (const child of this.viewport.children) child.removeAttribute('inert');
    this.element.remove();
  }
}
