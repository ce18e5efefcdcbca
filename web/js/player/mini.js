// The mini player: a bar at the bottom of every page but the player's own while a book is open, with play or
// pause, the book and chapter, and a link back to the player. Built once and updated in place, so the focus
// stays on its button.

import { h } from '../dom.js';
import { sharedPlayer } from './shared.js';

let parts = null;

export function showMiniPlayer() {
  const player = sharedPlayer();
  if (!parts) {
    parts = {
      toggle: h('button', { type: 'button', class: 'mini-toggle', onclick: () => player.toggle() }, 'Play'),
      link: h('a', { href: '#/listen' }),
      chapter: h('span', { class: 'mini-chapter' }),
      bar: null,
    };
    parts.bar = h('section', { class: 'mini-player', 'aria-label': 'Now playing', hidden: true },
      parts.toggle, h('p', {}, parts.link, parts.chapter));
    document.body.insertBefore(parts.bar, document.getElementById('announcer'));
    const update = () => render(player);
    for (const type of ['book', 'state', 'chapter']) player.addEventListener(type, update);
    window.addEventListener('hashchange', update);
  }
  render(player);
}

function render(player) {
  parts.bar.hidden = !player.book || location.hash.startsWith('#/listen');
  if (parts.bar.hidden) return;
  // Waiting for a part to arrive is on its way to playing: its button pauses, as the player page's does.
  const going = player.playing || player.waiting;
  parts.toggle.textContent = going ? 'Pause' : 'Play';
  // The region's name says what it is now: "Now playing" only while something plays.
  parts.bar.setAttribute('aria-label', player.playing ? 'Now playing' : player.waiting ? 'Audiobook, waiting for a part' : 'Audiobook, paused');
  parts.toggle.setAttribute('aria-label', `${going ? 'Pause' : 'Play'} ${player.book.title}`);
  parts.link.href = `#/listen?book=${encodeURIComponent(player.book.id)}`;
  parts.link.textContent = player.book.title;
  parts.chapter.textContent = player.chapter ? ` · ${player.chapter.title}` : '';
}
