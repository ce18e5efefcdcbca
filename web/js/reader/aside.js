// A page of the book outside its reading order (a spine item marked linear="no": notes, an answer key, a
// pop-up figure), reached by a link: EPUB Reading Systems 3.3 asks that it be shown, and the patron be able to go
// back. It opens in the reader's view with a bar that says so and leads back to the page the link was on; turning
// past its last page also goes back.

import { announce } from './announce.js';
import { notice, noticeWith } from '../notices.js';

const $ = (id) => document.getElementById(id);

export class Aside {
  /** @param {any} reader  the reader (main.js): its view, manifest, settings and goTo */
  constructor(reader) {
    this.reader = reader;
    /** @type {{href: string, progression: number, page: number} | null} where the patron was */
    this.from = null;
    $('aside-back').addEventListener('click', () => this.back());
  }

  get open() { return this.from !== null; }

  /** Whether `href` is a page of the book (HTML) outside its reading order. */
  isPage(href) {
    return (this.reader.manifest.resources ?? []).some((link) => link.href === href && /html/.test(link.type ?? ''));
  }

  async show(href, fragment) {
    const r = this.reader;
    if (r.fixed) return false;
    if (!this.from) this.from = { href: r.view.href, progression: r.view.progression, page: r.page };
    await r.view.open(r.resourceURL(href), href, r.settings.effective, r.language, { fragment, progression: 0 });
    const title = (r.manifest.resources ?? []).find((link) => link.href === href)?.title;
    $('aside-text').textContent = noticeWith('reader.outsideReadingOrder', title ? `“${title}”` : '');
    $('aside-back').textContent = `Back to page ${this.from.page}`;
    $('aside').hidden = false;
    announce(noticeWith('reader.outsideReadingOrder', notice('reader.wayBackAbove')));
    return true;
  }

  /** Forgets the way back (the patron went elsewhere in the book). */
  leave() {
    this.from = null;
    $('aside').hidden = true;
  }

  async back() {
    const from = this.from;
    if (!from) return;
    this.leave();
    await this.reader.goTo({ href: from.href, progression: from.progression }, { page: from.page });
    $('next-page').focus();
  }
}
