// The app's credential: a session token given once by the page the launch key opens (/open, see welcome.js),
// kept in this origin's storage and sent in a header. Not a cookie: a cookie goes to every port of its host
// name, so another local service the browser visits would receive it; this origin's storage (scheme, host and
// port) is the app's alone. EventSource sets no header: it names the token in its query instead.

const KEY = 'shelf.session';

export function sessionToken() {
  try { return localStorage.getItem(KEY) ?? ''; } catch { return ''; }
}

/** The headers every call to the API carries. */
export function sessionHeaders() {
  const token = sessionToken();
  return token ? { 'X-Shelf-Session': token } : {};
}

export function keepSession(token) {
  localStorage.setItem(KEY, token);
}
