// Every page of the app by its address (#/NAME). The reader and the player add theirs here, one line each.
import accounts from "./accounts.js";
import book from "./book.js";
import catalog from "./catalog.js";
import listen from "./listen.js";
import lists from "./lists.js";
import myBooks from "./my-books.js";
import notFound from "./not-found.js";
import notifications from "./notifications.js";
import open from "./open.js";
import reservations from "./reservations.js";

export const pages = {
  catalog,
  book,
  "my-books": myBooks,
  reservations,
  notifications,
  lists,
  accounts,
  open,
  listen,
  "not-found": notFound,
};
