// The reader's place as a Readium locator (docs/web.md, "The place"): what the browser saves at each turn and
// with each bookmark, and reads back from the host. The locator names the chapter (`href`), how far into it the
// screen starts (`locations.progression`) and the screen's first words (`text`, from in-book-place.js); the host
// adds the page it stands for as `shelf read` counts pages, without rendering anything. The page the browser
// counts goes with it (`locations.position`): of a resource the spine lists twice, it tells which entry is read. Going to a place finds
// its words first, so a place made at another width (another window, the terminal) lands on the same text.

/** Words of a quote looked for in the page: enough to be unique in a chapter, few enough to survive the
 * differences between the terminal's text and the page's (a heading's rule, a list's bullet). */
const WORDS = 8;

/**
 * The locator of the screen shown.
 * @param {any} view the reader's view (ReflowableView or FixedView)
 * @param {{href: string, type?: string, title?: string}} item the reading-order item shown
 * @param {boolean} fixed a fixed-layout book, whose pages are its positions: no words are needed
 * @param {number} page the page shown as the host counts them
 */
export async function screenLocator(view, item, fixed, page) {
  const words = fixed ? null : await view.ask('place');
  const locator = {
    href: item.href,
    type: item.type ?? 'application/xhtml+xml',
    locations: { progression: fixed ? 0 : Math.max(0, Math.min(1, view.progression)), position: page },
  };
  if (item.title) locator.title = item.title;
  if (words?.highlight) locator.text = words;
  return locator;
}

/** Where the view goes for a locator: its words near its progression, else its progression; no highlight. Its
 * position (page) tells the spine entries of a resource listed twice apart. */
export function placeOf(locator) {
  const text = locator?.text?.highlight?.split(/\s+/).filter(Boolean).slice(0, WORDS).join(' ');
  const place = { href: locator?.href, progression: locator?.locations?.progression ?? 0, position: locator?.locations?.position, highlight: false };
  return text ? { ...place, text } : place;
}

/** A key for the screen a locator stands for, to tell a new screen (to save) from the one saved. */
export function screenKey(locator) {
  return `${locator.href} ${locator.locations?.progression ?? 0} ${locator.locations?.position ?? ''}`;
}

/**
 * Whether a bookmark was made on the screen shown: in a paginated chapter, the screen its progression falls on at
 * this window (as in-book.js goes to a progression) in the reading-order entry shown; elsewhere (a fixed-layout
 * page, a scrolled chapter) its page. Of a resource the spine lists twice, the bookmark's page (its locator's
 * `position`, else the host's page for it) says which entry it was made in: the same screen of the other entry is
 * another place.
 * @param {{page?: number, locator?: any}} bookmark
 * @param {{href: string, page: number, pages: number}} view
 * @param {boolean} paginated
 * @param {number} page the page shown as the host counts them
 * @param {number} index the reading-order entry shown
 * @param {{placeOf: (page: number) => {href: string, index: number} | null} | null} pageMap
 */
export function onScreen(bookmark, view, paginated, page, index, pageMap) {
  const locator = bookmark.locator ?? {};
  if (!paginated) return bookmark.page === page;
  if (locator.href !== view.href) return false;
  const made = locator.locations?.position ?? bookmark.page;
  const entry = made && pageMap ? pageMap.placeOf(made) : null;
  if (entry && entry.href === locator.href && entry.index >= 0 && entry.index !== index) return false;
  const progression = locator.locations?.progression ?? 0;
  return Math.min(view.pages - 1, Math.floor(progression * view.pages + 1e-6)) === view.page;
}
