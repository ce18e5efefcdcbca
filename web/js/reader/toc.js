// The table of contents, nested as the book nests it, each entry with its page; the entry holding the page
// shown is marked (aria-current) and gets the focus when the panel opens.

import { h } from '../dom.js';

export class TableOfContents {
  constructor(list, go) {
    this.list = list;
    this.go = go;
    this.entries = [];
  }

  // `entries`: [{number, title, href, depth, page?}] in book order (`shelf read BOOK --toc 0`).
  fill(entries) {
    this.entries = entries;
    const stack = [this.list];
    this.list.replaceChildren();
    this.links = [];
    for (const entry of entries) {
      while (stack.length > entry.depth + 1) stack.pop();
      while (stack.length < entry.depth + 1) {
        const parent = stack[stack.length - 1];
        const nested = h('ol');
        (parent.lastElementChild ?? parent).append(nested);
        stack.push(nested);
      }
      const link = h('a', { href: '#' }, h('span', {}, entry.title || `Entry ${entry.number}`),
        entry.page ? h('span', { class: 'page' }, `page ${entry.page}`) : null);
      link.addEventListener('click', (event) => { event.preventDefault(); this.go(entry); });
      this.links.push(link);
      stack[stack.length - 1].append(h('li', {}, link));
    }
  }

  // The entry holding `page`: of the entries starting at or before it (and, for entries that start inside a
  // chapter, a fragment, whose start the patron has reached: `reached(entry)`), the one starting last, the later
  // in the book on a tie. Where an entry starts is its page, or `start(entry)`: an entry into a resource the spine
  // lists twice starts in each of its entries (`shelf read` names the page's chapter the same way).
  /**
   * @param {number} page
   * @param {(entry: object) => boolean} [reached]
   * @param {(entry: {page?: number}) => number | undefined} [start]
   */
  current(page, reached = () => true, start = (entry) => entry.page) {
    let found = -1;
    let latest = 0;
    this.entries.forEach((entry, index) => {
      const at = start(entry);
      if (at && at <= page && at >= latest && reached(entry)) { found = index; latest = at; }
    });
    return found;
  }

  /**
   * @param {number} page
   * @param {(entry: object) => boolean} [reached]
   * @param {(entry: {page?: number}) => number | undefined} [start]
   */
  mark(page, reached, start) {
    const current = this.current(page, reached, start);
    (this.links ?? []).forEach((link, index) => {
      if (index === current) link.setAttribute('aria-current', 'location');
      else link.removeAttribute('aria-current');
    });
    return current >= 0 ? this.entries[current] : null;
  }

  get currentLink() { return (this.links ?? []).find((link) => link.hasAttribute('aria-current')) ?? this.links?.[0] ?? null; }
}
