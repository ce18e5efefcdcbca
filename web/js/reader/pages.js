// The book's pages as the command line counts them: Readium positions, `count` of them in each reading-order
// resource from page `start`, at progressions i / count. "Page 12 of 340" and percent read come from here, so the
// browser and `shelf read` always agree on the page, whatever the font size.

export class PageMap {
  constructor(ranges) {
    this.ranges = ranges;
    this.byHref = new Map(ranges.map((range) => [range.href, range]));
    const last = ranges[ranges.length - 1];
    this.total = last ? last.start + last.count - 1 : 0;
  }

  // The page holding `progression` (0…1) of resource `href`.
  pageAt(href, progression) {
    const range = this.byHref.get(href);
    if (!range) return null;
    const index = Math.min(range.count - 1, Math.max(0, Math.floor(progression * range.count + 1e-9)));
    return range.start + index;
  }

  // Where page `page` starts: its resource and the progression in it.
  placeOf(page) {
    const range = this.ranges.find((r) => page >= r.start && page < r.start + r.count) ?? this.ranges[this.ranges.length - 1];
    if (!range) return null;
    return { href: range.href, progression: Math.max(0, page - range.start) / range.count };
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
