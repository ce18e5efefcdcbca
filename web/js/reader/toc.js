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

  // The entry holding `page`: the last whose page is at or before it and, for entries that start inside a
  // chapter (a fragment), whose start the patron has reached (`reached(entry)`).
  /** @param {number} page @param {(entry: object) => boolean} [reached] */
  current(page, reached = () => true) {
    let found = -1;
    this.entries.forEach((entry, index) => { if (entry.page && entry.page <= page && reached(entry)) found = index; });
    return found;
  }

  mark(page, reached) {
    const current = this.current(page, reached);
    (this.links ?? []).forEach((link, index) => {
      if (index === current) link.setAttribute('aria-current', 'location');
      else link.removeAttribute('aria-current');
    });
    return current >= 0 ? this.entries[current] : null;
  }

  get currentLink() { return (this.links ?? []).find((link) => link.hasAttribute('aria-current')) ?? this.links?.[0] ?? null; }
}
