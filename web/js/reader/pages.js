// The book's pages as the command line counts them: Readium positions, `count` of them in each reading-order
// resource from page `start`, at progressions i / count. "Page 12 of 340" and percent read come from here, so the
// browser and `shelf read` always agree on the page, whatever the font size.

export class PageMap {
  /**
   * @param {{href: string, start: number, count: number}[]} ranges the host's, in reading order
   * @param {{href: string}[]} items the reading order: each range is one of its entries (a resource the spine lists
   *   twice has a range each time), found in order; `index` is the entry's place in it
   */
  constructor(ranges, items = []) {
    this.ranges = ranges.map((range) => ({ ...range, index: -1 }));
    let next = 0;
    for (const range of this.ranges) {
      for (let i = next; i < items.length; i++) {
        if (items[i].href === range.href) { range.index = i; next = i + 1; break; }
      }
    }
    const last = ranges[ranges.length - 1];
    this.total = last ? last.start + last.count - 1 : 0;
  }

  /** The range of reading-order entry `index`, when it is resource `href`; else the first range of `href`. */
  rangeOf(href, index) {
    return this.ranges.find((range) => range.index === index && range.href === href) ?? this.ranges.find((range) => range.href === href);
  }

  // The page holding `progression` (0…1) of resource `href`, reading-order entry `index`.
  pageAt(href, progression, index = -1) {
    const range = this.rangeOf(href, index);
    if (!range) return null;
    const at = Math.min(range.count - 1, Math.max(0, Math.floor(progression * range.count + 1e-9)));
    return range.start + at;
  }

  // Where page `page` starts: its resource, its reading-order entry and the progression in it.
  placeOf(page) {
    const range = this.ranges.find((r) => page >= r.start && page < r.start + r.count) ?? this.ranges[this.ranges.length - 1];
    if (!range) return null;
    return { href: range.href, index: range.index, progression: Math.max(0, page - range.start) / range.count };
  }

  // Percent read, counted as the command line counts it: the page shown counts as read, rounded down.
  percent(page) {
    return this.total ? Math.floor((page * 100) / this.total) : 0;
  }
}

/**
 * The page counter (issue 37): in a paginated chapter, its screens at this window, so that the label moves exactly
 * when the screen does ("Page 3 of 7", beside the chapter's title); in a fixed-layout book (a page is a position)
 * or a scrolled chapter (no screens), the book's pages as `shelf read` counts them.
 * @param {{page: number, pages: number}} view
 */
export function counterWords(view, paginated, page, pages) {
  return paginated ? `Page ${view.page + 1} of ${view.pages}` : `Page ${page} of ${pages}`;
}
