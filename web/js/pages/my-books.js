// My Books: one entry per loan, with its due date and what can be done with it together (Read or Listen once it is
// on this computer, else Download; Return, which asks first), then the other books on this computer (added with
// `shelf add`, or returned loans kept) with how far each is read or listened.
import { h, replace, day, link, count } from "../dom.js";
import { formatWords, authors, openLink } from "../components/book.js";
import { actionButton, outcomeMessage, focusAfter } from "../components/actions.js";
import { checkLine, askLibrary, keepingFocus } from "../components/library-check.js";

export default {
  title: "My Books",

  // `outcome`: what a button on this page did, drawn with the page again (actions.js outcomeMessage);
  // `answer`: the library's answer to the check, once it came (null: ask it now).
  async render(main, params, app, outcome = null, answer = null) {
    const [loans, shelf] = await Promise.all([app.api.get("/api/loans", { limit: 500 }), app.api.get("/api/shelf", { limit: 500 })]);
    const again = async (result) => {
      await this.render(main, params, app, result, answer);
      focusAfter(main, "#loans-heading");
    };
    const ask = async (force) => {
      const fresh = await askLibrary(app, force);
      if (!main.isConnected) return;  // the patron went to another page meanwhile
      const line = main.querySelector("#library-check");
      // A button at work (a download, a return) keeps its row: only the line is drawn again.
      if (line && main.querySelector('.actions [aria-disabled="true"]')) line.replaceWith(checkLine(fresh, ask));
      else await keepingFocus(main, () => this.render(main, params, app, outcome, fresh));
      if (force) app.announce([fresh.message, fresh.hint].filter(Boolean).join(" "));
      app.refreshStatus();
    };
    // A downloaded loan is the shelf's book at the path its download went to: shown once, in its loan's entry.
    const byPath = new Map(shelf.items.filter((book) => book.path).map((book) => [book.path, book]));
    const shown = new Set();
    const rows = loans.items.map((loan) => {
      const book = loan.downloaded ? byPath.get(loan.downloaded) : undefined;
      if (book) shown.add(book.id);
      return loanRow(app, loan, book, again);
    });
    const others = shelf.items.filter((book) => !shown.has(book.id));
    const message = outcomeMessage(outcome);
    replace(main,
      h("h1", {}, "My Books"),
      message,
      checkLine(answer, ask),
      h("h2", { id: "loans-heading" }, "On loan"),
      rows.length
        ? h("ul", { class: "rows", "aria-labelledby": "loans-heading" }, rows)
        : h("p", { class: "empty" }, "Nothing on loan. ", h("a", { href: "#/catalog" }, "Browse the catalog")),
      h("h2", { id: "shelf-heading" }, loans.items.length ? "Other books on this computer" : "On this computer"),
      others.length
        ? h("ul", { class: "rows", "aria-labelledby": "shelf-heading" }, others.map((book) => h("li", {}, ...shelfBook(book))))
        : h("p", { class: "empty" }, "No other books on this computer. Books added with ", h("code", {}, "shelf add"), " appear here."));
    // What a button did is said last (the counts would drown it).
    if (message) app.announceUnlessSaid(message.textContent);
    else if (!answer) app.announce(`${count(loans.items.length, "loan")}, ${count(others.length, "other book")} on this computer.`);
    if (!answer) ask(false);
  },
};

function loanRow(app, loan, book, again) {
  const entry = loan.entry;
  const question = loan.returnQuestion ? { question: loan.returnQuestion.question, detail: loan.returnQuestion.detail } : undefined;
  return h("li", { "data-loan": entry.id, "data-key": `${loan.account} ${entry.id}` },
    h("div", { class: "grow" },
      h("h3", {}, h("a", { href: link("book", { id: entry.id, account: loan.account }) }, entry.title)),
      authors(entry) && h("p", { class: "authors" }, authors(entry)),
      h("p", {}, formatWords(entry), loan.until ? ` · Due back ${day(loan.until)}` : ""),
      book ? h("p", { class: "progress-words" }, progressWords(book)) : loan.downloaded ? h("p", {}, "Downloaded to this computer") : null,
      entry.supported === false ? h("p", { class: "unsupported" }, "Not supported on this device") : null),
    h("div", { class: "actions" },
      book ? openLink(book) : !loan.downloaded && entry.supported !== false ? actionButton(app, entry, loan.account, "download", again) : null,
      actionButton(app, entry, loan.account, "return", again, { question })));
}

function progressWords(book) {
  if (book.lastOpened === undefined) return "On this computer · Not started";
  const what = book.formatId === "audiobook" ? "Listened" : "Read";
  return `On this computer · ${what}: ${book.percentRead ?? 0}%${book.page && book.pages ? ` (page ${book.page} of ${book.pages})` : ""}`;
}

function shelfBook(book) {
  return [
    h("div", { class: "grow" },
      h("h3", {}, book.title),
      authors(book) && h("p", { class: "authors" }, authors(book)),
      h("p", {}, formatWords(book), book.loanEnds ? ` · Loan ends ${day(book.loanEnds)}` : "", book.sample ? " · Sample" : "")),
    h("p", { class: "progress-words" }, progressWords(book).replace("On this computer · ", "")),
    h("div", { class: "actions" }, openLink(book)),
  ];
}
