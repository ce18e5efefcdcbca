// What a screen reader hears without the focus moving: page turns and outcomes politely, failures at once.

const polite = () => document.getElementById('announce');
const assertive = () => document.getElementById('alert');

// A live region announces a change of its text; the same words twice are cleared first so they are said again.
function say(region, words) {
  if (region.textContent === words) {
    region.textContent = '';
    setTimeout(() => { region.textContent = words; }, 50);
  } else {
    region.textContent = words;
  }
}

export const announce = (words) => say(polite(), words);
export const alertNow = (words) => say(assertive(), words);
