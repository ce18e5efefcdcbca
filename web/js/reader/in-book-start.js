// What the server puts first in a book's page: a classic script, because an XHTML page (most EPUB pages) runs no
// module script the parser meets; it loads the reader's module (in-book.js), which its nonce lets in.
import('./in-book.js');
