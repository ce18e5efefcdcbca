// The app's side of the messages with the reader's script in a book's page (in-book.js). The page is in another
// origin, so the app cannot reach into it: it asks by message and gets the page's state back (the protocol is in
// docs/web.md). What comes from a page is taken as the page's word only: keys turn pages, a link is followed as
// the reader follows links, numbers are the page's state; a book allowed to run scripts could send the same.

const channels = new Map();
window.addEventListener('message', (event) => channels.get(event.source)?.receive(event.data));

// A page that never says it is ready (it has no reader script: an SVG page, an error) is shown as it is.
const READY_GRACE = 300;
// An answer that does not come (the page went elsewhere) is not waited for.
const ANSWER_TIMEOUT = 5000;

export class FrameChannel {
  /** @param {HTMLIFrameElement} frame  @param {object} handlers {keydown(event), link(url), note(url, text), swipe(direction), doubleTap(), phrase(id, frame)} */
  constructor(frame, handlers) {
    this.frame = frame;
    this.handlers = handlers;
    this.pending = new Map();
    this.next = 1;
    this.size = null;
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
      frame.addEventListener('load', () => setTimeout(() => resolve(null), READY_GRACE), { once: true });
    });
  }

  /** Listens to the frame's window: call once the frame is in the document. */
  attach() { channels.set(this.frame.contentWindow, this); }

  detach() {
    channels.delete(this.frame.contentWindow);
    for (const resolve of this.pending.values()) resolve(null);
    this.pending.clear();
  }

  receive(message) {
    if (!message || typeof message.shelf !== 'string') return;
    switch (message.shelf) {
      case 'ready':
        this.size = message.size ?? null;
        this.resolveReady(message);
        break;
      case 'reply': {
        const resolve = this.pending.get(message.id);
        this.pending.delete(message.id);
        resolve?.(message);
        break;
      }
      case 'key':
        this.handlers.keydown({ key: String(message.key), shiftKey: !!message.shiftKey, altKey: false, ctrlKey: false, metaKey: false,
          defaultPrevented: false, target: null, preventDefault() {} });
        break;
      case 'link':
        try { this.handlers.link(new URL(String(message.href))); } catch { /* not an address: nothing to follow */ }
        break;
      case 'note':
        try { this.handlers.note?.(new URL(String(message.href)), String(message.text ?? '')); } catch { /* not an address */ }
        break;
      case 'wheel':
        this.handlers.wheel?.(Number(message.deltaY) || 0);
        break;
      case 'extent':
        this.handlers.extent?.(Number(message.height) || 0);
        break;
      case 'edge':
        this.handlers.edge?.(message.direction === -1 ? -1 : 1);
        break;
      case 'swipe':
        this.handlers.swipe(message.direction === 'left' ? 'left' : 'right');
        break;
      case 'phrase':
        this.handlers.phrase?.(String(message.id ?? ''), this.frame);
        break;
      case 'double-tap':
        this.handlers.doubleTap();
        break;
    }
  }

  /** Asks the page; resolves with its answer ({result, state}) or null. */
  call(shelf, data = {}) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      setTimeout(() => { if (this.pending.delete(id)) resolve(null); }, ANSWER_TIMEOUT);
      this.frame.contentWindow?.postMessage({ shelf, id, ...data }, '*');
    });
  }
}
