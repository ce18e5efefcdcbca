// Which way a book's pages go. The spine's page-progression-direction says it (the manifest's readingProgression);
// a book that declares none follows its language, as Readium does: Arabic, Hebrew, Persian, Urdu and the other
// languages written right to left go right to left (the page's text direction too, when the page sets none).

const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ku', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);

/** Whether a BCP 47 tag names a language written right to left. */
export function isRTLLanguage(tag) {
  const [language, ...rest] = String(tag ?? '').toLowerCase().split(/[-_]/);
  // A script subtag says better than the language (Azerbaijani in Arabic script, Uzbek in Latin).
  if (rest.includes('arab') || rest.includes('hebr') || rest.includes('thaa') || rest.includes('syrc')) return true;
  if (rest.some((part) => part.length === 4)) return false;
  return RTL_LANGUAGES.has(language);
}

/** Whether the book's pages go right to left. */
export function isRTLBook(manifest) {
  const declared = manifest.metadata?.readingProgression;
  if (declared === 'rtl' || declared === 'ltr') return declared === 'rtl';
  return isRTLLanguage([].concat(manifest.metadata?.language ?? [])[0]);
}
