// How a book asks to be read: paginated or scrolled (EPUB 3.3 rendition:flow, book-wide in the manifest's
// presentation, per item in a reading-order link's properties, as Readium's presentation hints give them). What the
// book declares is the default; the patron's own choice for the book (Display) wins over it.

/**
 * The flow the book declares for reading-order item `item`: 'scrolled', 'paginated', or null (auto, or nothing).
 * @param {any} manifest  @param {any} item
 */
export function declaredFlow(manifest, item) {
  const own = item?.properties?.overflow;
  const overflow = own && own !== 'auto' ? own : manifest.metadata?.presentation?.overflow;
  return overflow === 'scrolled' || overflow === 'paginated' ? overflow : null;
}

/** Whether the book asks that item `item`'s chapters follow each other as one scroll (scrolled-continuous). */
export function declaredContinuous(manifest, item) {
  return !!(item?.properties?.continuous ?? (item?.properties?.overflow ? false : manifest.metadata?.presentation?.continuous));
}
