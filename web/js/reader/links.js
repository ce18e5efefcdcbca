// Links in a book that do not simply lead to another page of it (EPUB 3 structural semantics; what Readium and
// Thorium do): a note reference (`epub:type="noteref"`) opens the note in a pop-up, with a way to go to it; a link
// out of the book says where it leads and opens only once the patron agrees; `mailto:` opens the mail program.

import { openPanel } from './panels.js';

/** An element of reader.html. @param {string} id */
const $ = (id) => document.getElementById(id);
/** One of reader.html's panels. @param {string} id */
const dialog = (id) => /** @type {HTMLDialogElement} */ ($(id));

export class Links {
  /** `goInBook(url)`: follows a link into the book (the reader's own). */
  constructor(goInBook) {
    this.goInBook = goInBook;
    this.noteURL = null;
    this.outside = null;
    $('note-go').addEventListener('click', () => {
      dialog('note').close();
      if (this.noteURL) this.goInBook(this.noteURL);
    });
    $('leave-open').addEventListener('click', () => {
      dialog('leave').close();
      if (this.outside) window.open(this.outside.href, '_blank', 'noopener,noreferrer');
    });
  }

  /** A note's words (text only: a book's markup never reaches the app's page) in the pop-up. */
  showNote(url, text) {
    this.noteURL = url;
    $('note-text').textContent = text;
    openPanel($('note'), document.activeElement instanceof HTMLElement ? document.activeElement : null, () => $('note-go'));
  }

  /** A link out of the book: http(s) after the patron agrees, mail at once (the mail program asks itself). */
  leave(url) {
    if (url.protocol === 'mailto:') return this.mail(url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    this.outside = url;
    $('leave-address').textContent = url.href;
    openPanel($('leave'), document.activeElement instanceof HTMLElement ? document.activeElement : null, () => $('leave-open'));
  }

  // The page follows a mailto: link of its own, which the browser hands to the mail program; the book's frame
  // cannot (its sandbox keeps it from navigating anything but itself).
  mail(url) {
    const link = document.createElement('a');
    link.href = url.href;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  }
}
