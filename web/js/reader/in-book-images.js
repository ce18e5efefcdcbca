// Pictures on pages (in-book.js calls this after each layout in pages, not in the scrolled column). The reader's
// styles (frame-style.js) keep a picture within one page, as Readium CSS does; a picture taller than the room left
// under a sentence would then move whole to the next page and leave this one nearly empty. So a picture is scaled
// down to the room left when that room is a fair share of the page, and a figure's picture leaves room for its
// caption, so that the two are on the same page (a figure of an SVG drawing as much as one of an image).

// The least room, as a share of the page's height, that a picture is scaled down into rather than moved.
const LEAST_SHARE = 0.4;
const MEDIA = 'img, svg, video, object[type^="image/"]';
const FITTED = 'data-shelf-fitted';

/** Fits each picture of the page's document to the page it falls on (horizontal pages only). */
export function fitPictures(doc, pageHeight) {
  if (!doc.body) return;
  for (const element of doc.querySelectorAll(`[${FITTED}]`)) {
    /** @type {HTMLElement} */ (element).style.removeProperty('max-height');
    element.removeAttribute(FITTED);
  }
  const root = getComputedStyle(doc.documentElement);
  const top = parseFloat(root.paddingTop) || 0;
  const bottom = pageHeight - (parseFloat(root.paddingBottom) || 0);
  const pageRoom = bottom - top;
  for (const media of doc.body.querySelectorAll(MEDIA)) {
    // A drawing inside another (an SVG's own parts) goes with it.
    if (media.parentElement?.closest('svg')) continue;
    const element = /** @type {HTMLElement} */ (media);
    const natural = element.getBoundingClientRect().height;
    if (natural === 0) continue;
    const caption = captionOf(element);
    // Where the picture starts when it takes no room: under the sentence before it (at its full height it may
    // already have been moved to the next page).
    element.style.setProperty('max-height', '1px', 'important');
    element.setAttribute(FITTED, '');
    const start = element.getBoundingClientRect().top;
    const captionHeight = caption ? outerHeight(caption) : 0;
    const room = bottom - start - captionHeight;
    // Scaled to the room left when it is a fair share of the page, else to a whole page (less the caption).
    const height = natural <= room + 0.5 ? natural : room >= LEAST_SHARE * pageRoom ? room : pageRoom - captionHeight;
    if (height >= natural - 0.5 || height <= 0) {
      element.style.removeProperty('max-height');
      element.removeAttribute(FITTED);
      continue;
    }
    element.style.setProperty('max-height', `${Math.floor(height)}px`, 'important');
    // A picture in a line of text brings the line's own height along: when the line no longer fits (the picture
    // moved on), it gives up a line's height more.
    if (Math.abs(element.getBoundingClientRect().top - start) > 1) {
      const line = parseFloat(getComputedStyle(element.parentElement ?? element).fontSize) || 16;
      element.style.setProperty('max-height', `${Math.max(1, Math.floor(height - line))}px`, 'important');
    }
  }
}

// The caption after a picture in its figure: what must stay on the picture's page.
function captionOf(element) {
  const figure = element.closest('figure');
  const caption = figure?.querySelector(':scope > figcaption');
  if (!caption) return null;
  const after = element.compareDocumentPosition(caption) & Node.DOCUMENT_POSITION_FOLLOWING;
  return after ? caption : null;
}

function outerHeight(element) {
  const style = getComputedStyle(element);
  return element.getBoundingClientRect().height + (parseFloat(style.marginTop) || 0) + (parseFloat(style.marginBottom) || 0);
}
