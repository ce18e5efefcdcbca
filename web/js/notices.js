// The sentences the browser's scripts say of their own (a lost connection, the book's last page, a setting not
// saved), written by the host's words module and loaded once at start (GET /api/words): a script shows
// `notice(key)` as it is given, and adds after it only a value it has (the page counter, the server's reason).

import { sessionHeaders } from "./session.js";

/** @type {Record<string, string>} every sentence by key ("reader.lastPage") */
let lines = {};
/** @type {Promise<void> | null} */
let loading = null;

/** Loads the sentences once; when the server cannot be reached yet, the next call tries again. */
export function loadNotices() {
  loading ??= fetch("/api/words", { credentials: "same-origin", headers: sessionHeaders() })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
    .then((answer) => { lines = answer ?? {}; }, () => { loading = null; });
  return loading;
}

/** The host's sentence for `key` (group.notice: "reader.lastPage"); nothing when the words could not be loaded. */
export function notice(key) {
  return lines[key] ?? "";
}

/**
 * The host's sentence for `key`, then the value the page has (the counter, the server's reason), as one line.
 * @param {string} key
 * @param {string} [value]
 */
export function noticeWith(key, value) {
  return value ? `${notice(key)} ${value}` : notice(key);
}

/** Every sentence of a group by its own key: "narration" gives {ready, ended, ...}. */
export function noticesOf(group) {
  const prefix = `${group}.`;
  return Object.fromEntries(Object.entries(lines).filter(([key]) => key.startsWith(prefix)).map(([key, line]) => [key.slice(prefix.length), line]));
}
