// The server's event stream (/api/events): notifications, sync results, download progress, the counts behind
// the badges, and the kinds the reader and the player add. Any module listens with `on(kind, handler)`.

import { sessionToken } from "./session.js";

const handlers = new Map();
const connectionHandlers = new Set();
let source = null;
let connected = true;

export function on(kind, handler) {
  if (!handlers.has(kind)) {
    handlers.set(kind, new Set());
    if (source) listen(kind);
  }
  handlers.get(kind).add(handler);
  return () => handlers.get(kind).delete(handler);
}

/** Called with true or false when the stream connects or drops (the server stopped, the network went). */
export function onConnection(handler) {
  connectionHandlers.add(handler);
}

export function isConnected() {
  return connected;
}

function listen(kind) {
  source.addEventListener(kind, (event) => {
    let data = null;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const handler of handlers.get(kind) || []) handler(data);
  });
}

function setConnected(value) {
  if (value === connected) return;
  connected = value;
  for (const handler of connectionHandlers) handler(value);
}

export function start() {
  source = new EventSource(`/api/events?session=${encodeURIComponent(sessionToken())}`);
  for (const kind of handlers.keys()) listen(kind);
  source.addEventListener("open", () => setConnected(true));
  // EventSource reconnects by itself (and sends Last-Event-ID, so nothing is missed).
  source.addEventListener("error", () => setConnected(false));
  window.addEventListener("offline", () => setConnected(false));
}
