// What the patron does inside a book's page comes to the reader: the page's frame runs no script of its own, so
// keys, links, swipes and double taps are heard from here. Reflowable and fixed-layout pages share it.
export function forwardInput(doc, handlers) {
  doc.addEventListener('keydown', (event) => handlers.keydown(event));
  doc.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[href]');
    if (!link) return;
    event.preventDefault();
    handlers.link(new URL(link.getAttribute('href'), doc.baseURI));
  });
  let start = null;
  doc.addEventListener('touchstart', (event) => {
    const t = event.changedTouches[0];
    start = { x: t.clientX, y: t.clientY };
  }, { passive: true });
  doc.addEventListener('touchend', (event) => {
    if (!start) return;
    const t = event.changedTouches[0];
    const dx = t.clientX - start.x, dy = t.clientY - start.y;
    start = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) handlers.swipe(dx < 0 ? 'left' : 'right');
  }, { passive: true });
  // Double tap (a double click) goes forward, as the requirements ask.
  doc.addEventListener('dblclick', (event) => {
    if (event.target.closest?.('a[href]')) return;
    handlers.doubleTap();
  });
}
