// The reader's styles, laid over the publisher's inside the book's frame: font size, font, theme colours, line
// spacing and margins, and the page geometry (CSS columns one page wide, or one scrolled column). Written into
// a <style> of the frame's document (the book's Content-Security-Policy allows styles, never scripts). The book's
// own look shows unless the patron chose otherwise: with the publisher's font (the default) its families stay.

const SERIF = '"Liberation Serif", "Times New Roman", Georgia, "DejaVu Serif", serif';
const SANS = 'Carlito, Calibri, Avenir, "Liberation Sans", Arial, "DejaVu Sans", sans-serif';
// Scripts whose own fonts a Latin font family would only get in the way of: generic families only.
const GENERIC_ONLY = /^(ja|zh|ko|mn|ar|fa|he|hi|th|chr|am|bn|ta|te)\b/i;

const THEMES = {
  day: { fg: '#000', bg: '#fff', link: '#0b57d0' },
  night: { fg: '#fff', bg: '#000', link: '#8ab4f8' },
  sepia: { fg: '#3b2f22', bg: '#f4ecd8', link: '#6b3e00' },
};

export const MARGINS = { 1: 16, 2: 40, 3: 80 };

export function themeColours(theme) { return THEMES[theme] ?? THEMES.day; }

// `geometry`: {width, height, vertical, flow}; `language`: the book's language (for the font families).
export function frameCSS(settings, geometry, language = '') {
  const colours = themeColours(settings.theme);
  const { width, height, vertical, flow } = geometry;
  const margin = MARGINS[settings.margins] ?? MARGINS[2];
  const top = Math.round(Math.min(margin, 48) * 0.75);
  // Lines no longer than about 85, 70 or 55 characters (narrow, medium, wide margins) on a wide window: the
  // rest of the width becomes margin.
  const longest = ({ 1: 50, 2: 40, 3: 32 }[settings.margins] ?? 40) * (16 * settings.fontScale) / 100;
  const side = vertical ? margin : Math.max(margin, Math.round((width - longest) / 2));
  const generic = GENERIC_ONLY.test(language);
  const family = { sans: generic ? 'sans-serif' : SANS, serif: generic ? 'serif' : SERIF }[settings.font] ?? null;
  const lines = [];

  lines.push(`:root { font-size: ${(16 * settings.fontScale) / 100}px !important; -webkit-text-size-adjust: none; }`);
  lines.push(`:root, body { background-color: ${colours.bg} !important; color: ${colours.fg} !important; }`);
  lines.push(`body { font-size: 1rem !important; margin: 0 !important; max-width: none !important; }`);
  if (family) {
    lines.push(`body, body :where(p, div, span, li, dd, dt, blockquote, td, th, h1, h2, h3, h4, h5, h6, a, em, i, b, strong, cite, small, sup, sub, section, article, aside) { font-family: ${family} !important; }`);
  }
  if (settings.theme !== 'day') {
    // Night and sepia: the publisher's colours give way, or dark text would sit on a dark page.
    lines.push(`body * { color: inherit !important; background-color: transparent !important; border-color: currentcolor !important; }`);
    lines.push(`body a:link, body a:visited { color: ${colours.link} !important; }`);
  }
  if (settings.lineSpacing) {
    lines.push(`body, body :where(p, li, dd, dt, blockquote, td, div, span) { line-height: ${Number(settings.lineSpacing)} !important; }`);
  }
  // Hyphenation (a setting the host keeps): on breaks words at line ends by the rules of the page's language (the
  // page says it, or the reader sets the book's: in-book.js); off never; publisher leaves the book's own.
  if (settings.hyphens === 'on' || settings.hyphens === 'off') {
    const hyphens = settings.hyphens === 'on' ? 'auto' : 'manual';
    lines.push(`body, body * { hyphens: ${hyphens} !important; -webkit-hyphens: ${hyphens} !important; }`);
  }
  lines.push(`img, svg, video, canvas { max-width: 100% !important; height: auto; object-fit: contain; }`);
  lines.push(`::highlight(shelf-hit) { background-color: #ffe08a; color: #111; }`);
  lines.push(`::selection { background-color: #b4d5fe; color: #000; }`);

  if (flow === 'scrolled') {
    lines.push(`:root { overflow: auto !important; height: auto !important; padding: ${top}px ${side}px !important; }`);
    lines.push(`body { ${vertical ? 'max-height' : 'max-width'}: 40em !important; margin: 0 auto !important; }`);
  // Pages are columns exactly one screen long with no gap between them, the margins along the lines being the
  // body's padding (repeated on each column): the root's own padding at the columns' end is not in the scrollable
  // length Chromium reports, so the last page could not be scrolled to in full and showed shifted by the margin.
  } else if (vertical) {
    // Vertical writing: columns are laid out top to bottom, one page high each.
    lines.push(`:root { box-sizing: border-box !important; width: ${width}px !important; height: ${height}px !important;
      margin: 0 !important; padding: 0 ${side}px !important; overflow: hidden !important;
      column-width: ${height}px !important; column-gap: 0 !important; column-fill: auto !important; }`);
    lines.push(`body { padding-top: ${top}px !important; padding-bottom: ${top}px !important; }`);
    lines.push(`img, svg, video { max-height: ${height - 2 * top}px !important; max-width: ${width - 2 * side}px !important; }`);
  } else {
    lines.push(`:root { box-sizing: border-box !important; width: ${width}px !important; height: ${height}px !important;
      max-width: none !important; max-height: none !important; margin: 0 !important; padding: ${top}px 0 !important;
      overflow: hidden !important; column-width: ${width}px !important; column-gap: 0 !important;
      column-fill: auto !important; }`);
    lines.push(`body { padding-left: ${side}px !important; padding-right: ${side}px !important; }`);
    lines.push(`img, svg, video { max-height: ${height - 2 * top}px !important; break-inside: avoid; }`);
    // A figure stays whole on a page (in-book-images.js leaves room for its caption).
    lines.push(`figure { break-inside: avoid; }`);
  }
  return lines.join('\n');
}
