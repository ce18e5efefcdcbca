// Times as a screen reader should say them ("12 minutes 5 seconds") and as the eye reads them ("12:05"). How
// many units a time in words names is the host's rule (GET /api/player, rules.timeWords), the one `shelf listen`
// says times by; `useRules` takes it when a book opens.

let timeWordsUnits = 2;

/** Takes the host's rules for times in words (`rules.timeWords` of GET /api/player). */
export function useRules(rules) {
  if (Number.isInteger(rules?.timeWords?.units) && rules.timeWords.units > 0) timeWordsUnits = rules.timeWords.units;
}

// The largest unit that is not 0 and, up to the rule's count, those after it that are not: "1 hour 2 minutes"
// (seconds dropped past an hour by the rule of 2), "3 minutes 5 seconds", "40 seconds".
export function spoken(seconds) {
  const total = Math.max(0, Math.round(seconds));
  const units = [[Math.floor(total / 3600), 'hour'], [Math.floor((total % 3600) / 60), 'minute'], [total % 60, 'second']];
  let first = units.findIndex(([n]) => n > 0);
  if (first < 0) first = units.length - 1;
  return units.slice(first, first + timeWordsUnits)
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, one]) => `${n} ${one}${n === 1 ? '' : 's'}`)
    .join(' ');
}

export function clock(seconds) {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// "speed 1.5 times", "speed 1 times" reads oddly: "normal speed".
export function speedWords(rate) {
  const value = Math.round(rate * 100) / 100;
  return value === 1 ? 'speed 1 time, normal' : `speed ${value} times`;
}
