// Reservations: holds, the ones ready to borrow first with Get (the top bar's badge counts them). Drawn at once from
// what shelf knows, then again when the library has been asked (library-check.js).
import { h, replace, day, link, count } from "../dom.js";
import { formatWords, authors } from "../components/book.js";
import { actionButton, outcomeMessage, focusAfter } from "../components/actions.js";
import { checkLine, askLibrary, keepingFocus } from "../components/library-check.js";

export default {
  title: "Reservations",

  // `outcome`: what a button on this page did, drawn with the page again (actions.js outcomeMessage);
  // `answer`: the library's answer to the check, once it came (null: ask it now).
  async render(main, params, app, outcome = null, answer = null) {
    const holds = await app.api.get("/api/holds", { limit: 500 });
    const ready = holds.items.filter((hold) => hold.ready).length;
    const again = async (result) => {
      await this.render(main, params, app, result, answer);
      focusAfter(main);
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
    const message = outcomeMessage(outcome);
    replace(main,
      h("h1", {}, "Reservations"),
      message,
      checkLine(answer, ask),
      h("p", { id: "holds-summary" }, holds.items.length ? `${count(holds.items.length, "hold")}, ${ready} ready to borrow.` : ""),
      holds.items.length
        ? h("ul", { class: "rows" }, holds.items.map((hold) => row(app, hold, again)))
        : h("p", { class: "empty" }, "No reservations. Titles with no free copy can be reserved from their details."));
    if (message) app.announceUnlessSaid(message.textContent);
    if (!answer) ask(false);
  },
};

function row(app, hold, again) {
  const entry = hold.entry;
  // A physical copy that came in is picked up at its branch (the host's words); the others say where they are.
  const where = hold.pickUp ? hold.pickUp : hold.ready
    ? `Ready to borrow${hold.until ? ` until ${day(hold.until)}` : ""}`
    : hold.position ? `Number ${hold.position}${hold.queueSize ? ` of ${hold.queueSize}` : ""} in the queue` : "Waiting in the queue";
  // A title's own hold and a branch's are two rows: each is keyed, and cancelled, as its own ("" is the title's own).
  return h("li", { "data-key": `${hold.account} ${entry.id} ${hold.branch || ""}` },
    h("div", { class: "grow" },
      h("h2", {}, h("a", { href: link("book", { id: entry.id, account: hold.account }) }, entry.title)),
      authors(entry) && h("p", { class: "authors" }, authors(entry)),
      // A branch's hold is for a physical copy ("Physical copy at B", never the e-book's format; shelf's words).
      h("p", {}, hold.branch ? hold.kind : formatWords(entry)),
      hold.kept ? h("p", { class: "kept" }, hold.kept) : null,
      h("p", { class: hold.ready ? "availability state-ready" : "availability state-reserved" }, where)),
    h("div", { class: "actions" },
      // What the row offers is the host's (TitleOffer): Get only for the title's own hold come in, never for a physical
      // copy's; Cancel only where the library gives a way (otherwise the branch is asked).
      hold.actions.includes("borrow") ? actionButton(app, entry, hold.account, "borrow", again) : null,
      hold.actions.includes("cancel-hold")
        ? actionButton(app, entry, hold.account, "cancel-hold", again, { body: { branch: hold.branch || "" } }) : null));
}
