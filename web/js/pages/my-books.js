// My Books: what is on loan (with its due date, and Download or Return), and every book on the shelf on this
// computer with how far it is read or listened.
import { h, replace, day, link, count } from "../dom.js";
import { formatWords, authors } from "../components/book.js";
import { actionButton, outcomeMessage } from "../components/actions.js";

export default {
  title: "My Books",

  // `outcome`: what a button on this page did, drawn with the page again (actions.js outcomeMessage).
  async render(main, params, app, outcome = null) {
    const [loans, shelf] = await Promise.all([app.api.get("/api/loans", { limit: 500 }), app.api.get("/api/shelf", { limit: 500 })]);
    const again = async (result) => {
      await this.render(main, params, app, result);
      main.querySelector("h1").focus();
    };
    const message = outcomeMessage(outcome);
    replace(main,
      h("h1", {}, "My Books"),
      message,
      h("h2", { id: "loans-heading" }, "On loan"),
      loans.items.length
        ? h("ul", { class: "rows", "aria-labelledby": "loans-heading" }, loans.items.map((loan) => loanRow(app, loan, again)))
        : h("p", { class: "empty" }, "Nothing on loan. ", h("a", { href: "#/catalog" }, "Browse the catalog")),
      h("h2", { id: "shelf-heading" }, "On this computer"),
      shelf.items.length
        ? h("ul", { class: "rows", "aria-labelledby": "shelf-heading" }, shelf.items.map((book) => shelfRow(book)))
        : h("p", { class: "empty" }, "No books on this computer yet. Downloaded loans and books added with ", h("code", {}, "shelf add"), " appear here."));
    // What a button did is said last (the counts would drown it).
    if (message) app.announceUnlessSaid(message.textContent);
    else app.announce(`${count(loans.items.length, "loan")}, ${count(shelf.items.length, "book")} on this computer.`);
  },
};

function loanRow(app, loan, again) {
  const entry = loan.entry;
  return h("li", {},
    h("div", { class: "grow" },
      h("h3", {}, h("a", { href: link("book", { id: entry.id, account: loan.account }) }, entry.title)),
      authors(entry) && h("p", { class: "authors" }, authors(entry)),
      h("p", {}, formatWords(entry), loan.until ? ` · Due back ${day(loan.until)}` : ""),
      loan.downloaded ? h("p", {}, "Downloaded to this computer") : null,
      entry.supported === false ? h("p", { class: "unsupported" }, "Not supported on this device") : null),
    h("div", { class: "actions" },
      !loan.downloaded && entry.supported !== false ? actionButton(app, entry, "download", again) : null,
      actionButton(app, entry, "return", again)));
}

function shelfRow(book) {
  const read = book.lastOpened === undefined
    ? "Not started"
    : `${book.formatId === "audiobook" ? "Listened" : "Read"}: ${book.percentRead ?? 0}%${book.page && book.pages ? ` (page ${book.page} of ${book.pages})` : ""}`;
  return h("li", {},
    h("div", { class: "grow" },
      h("h3", {}, book.title),
      authors(book) && h("p", { class: "authors" }, authors(book)),
      h("p", {}, formatWords(book), book.loanEnds ? ` · Loan ends ${day(book.loanEnds)}` : "", book.sample ? " · Sample" : "")),
    h("p", { class: "progress-words" }, read),
    h("div", { class: "actions" }, book.formatId === "audiobook"
      ? h("a", { class: "button", href: link("listen", { book: book.id }) }, `Listen to ${book.title}`)
      : h("a", { class: "button", href: `/reader.html?${new URLSearchParams({ book: book.id, from: "shelf" })}` }, `Read ${book.title}`)));
}
