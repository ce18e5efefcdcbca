// Reservations: holds, the ones ready to borrow first with Get (the top bar's badge counts them).
import { h, replace, day, link, count } from "../dom.js";
import { formatWords, authors } from "../components/book.js";
import { actionButton, outcomeMessage } from "../components/actions.js";

export default {
  title: "Reservations",

  // `outcome`: what a button on this page did, drawn with the page again (actions.js outcomeMessage).
  async render(main, params, app, outcome = null) {
    const holds = await app.api.get("/api/holds", { limit: 500 });
    const ready = holds.items.filter((hold) => hold.ready).length;
    const again = async (result) => {
      await this.render(main, params, app, result);
      main.querySelector("h1").focus();
    };
    const message = outcomeMessage(outcome);
    replace(main,
      h("h1", {}, "Reservations"),
      message,
      h("p", {}, holds.items.length ? `${count(holds.items.length, "hold")}, ${ready} ready to borrow.` : ""),
      holds.items.length
        ? h("ul", { class: "rows" }, holds.items.map((hold) => row(app, hold, again)))
        : h("p", { class: "empty" }, "No reservations. Titles with no free copy can be reserved from their details."));
    if (message) app.announceUnlessSaid(message.textContent);
  },
};

function row(app, hold, again) {
  const entry = hold.entry;
  const where = hold.ready
    ? `Ready to borrow${hold.until ? ` until ${day(hold.until)}` : ""}`
    : hold.position ? `Number ${hold.position}${hold.queueSize ? ` of ${hold.queueSize}` : ""} in the queue` : "Waiting in the queue";
  return h("li", {},
    h("div", { class: "grow" },
      h("h2", {}, h("a", { href: link("book", { id: entry.id, account: hold.account }) }, entry.title)),
      authors(entry) && h("p", { class: "authors" }, authors(entry)),
      h("p", {}, formatWords(entry)),
      h("p", { class: hold.ready ? "availability state-ready" : "availability state-reserved" }, where, hold.branch ? ` · ${hold.branch}` : "")),
    h("div", { class: "actions" },
      hold.ready ? actionButton(app, entry, "borrow", again) : null,
      actionButton(app, entry, "cancel-hold", again)));
}
