// Times as a screen reader should say them ("12 minutes 5 seconds") and as the eye reads them ("12:05").

export function spoken(seconds) {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const part = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const parts = [];
  if (h) parts.push(part(h, 'hour'));
  if (m) parts.push(part(m, 'minute'));
  if (s || !parts.length) parts.push(part(s, 'second'));
  return parts.join(' ');
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
