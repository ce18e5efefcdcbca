// A title's details: cover, format and availability in words, description, the actions its state allows,
// and holds on physical copies by branch.
import { h, replace, day, link } from "../dom.js";
import { notice } from "../notices.js";
import { cover, formatWords, availabilityWords, authors, openLink, openAddress } from "../components/book.js";
import { actionButton, whereToGo } from "../components/actions.js";
import { catalogAddress } from "./catalog.js";

/** A language code as the name a patron reads ("en" is "English"), in the browser's own language. */
function languageName(code) {
  try {
    return new Intl.DisplayNames([navigator.language || "en"], { type: "language" }).of(code) || code;
  } catch {
    return code;  // not a code the browser knows: shown as the library gave it
  }
}

export default {
  title: "Title details",
  section: "catalog",

  async render(main, params, app) {
    if (!params.id) throw new Error(notice("pages.noTitleNamed"));
    const entry = await app.api.get("/api/book", { id: params.id, account: params.account });
    document.title = `${entry.title} · shelf`;
    const status = h("p", { id: "action-result", class: "message", hidden: true });
    const actions = h("div", { class: "actions", role: "group", "aria-label": "What you can do" });

    const redraw = async (result, action) => {
      // Listen: the audiobook's first part is here; the player opens while the rest arrives.
      if (result && result.playable) {
        location.assign(link("listen", { book: result.playable }));
        return;
      }
      // Drawn again from the library the page's title is at (the one in use may have changed meanwhile).
      const fresh = await app.api.get("/api/book", { id: params.id, account: entry.account || params.account });
      // Members the fresh document may leave out must not stay from before.
      delete entry.shelfBook;
      delete entry.cancelBranch;
      Object.assign(entry, fresh);
      // Read or Listen downloaded what was needed: the book opens (the end of the download was said already).
      if (result && result.downloaded && (action === "read" || action === "listen") && entry.shelfBook) {
        location.assign(openAddress(entry.shelfBook, "jacket"));
        return;
      }
      if (note) note.hidden = entry.libraryAnswered !== false;
      replace(main.querySelector("#availability"), availabilityWords(entry));
      drawActions();
      // A title now on loan offers no wish (wishControl).
      const wishArea = main.querySelector("#wish-area");
      if (wishArea) wishArea.replaceWith(wishControl(app, entry));
      if (result && (result.message || result.error)) {
        status.hidden = false;
        status.className = result.error ? "message error" : "message";
        replace(status, result.message || result.error, whereToGo(result));
      }
      if (result && result.downloaded) {
        status.hidden = false;
        status.className = "message";
        replace(status, "Downloaded. ", h("a", { href: "#/my-books" }, "Go to My Books"));
      }
      const first = actions.querySelector("button, a.button") || status.querySelector("a") || main.querySelector("h1");
      first.focus();
      app.refreshStatus();
    };

    function drawActions() {
      // What the title offers is the host's (TitleOffer, from its state and the patron's holds), never worked out here.
      const list = entry.actions || [];
      replace(actions, list.map((action) => (action === "read" || action === "listen") && entry.shelfBook
        ? openLink(entry.shelfBook, "jacket")
        : actionButton(app, entry, entry.account, action, (result) => redraw(result, action),
          action === "return" && entry.returnQuestion ? { question: entry.returnQuestion }
            // Cancel names the hold the host says the title's state is about (a branch's, or the title's own beside one).
            : action === "cancel-hold" && typeof entry.cancelBranch === "string" ? { body: { branch: entry.cancelBranch } } : {})));
      if (!list.length) actions.append(h("p", { class: "empty" }, "Nothing to borrow or reserve here."));
      if (sample) actions.append(h("a", { class: "button secondary", href: link("open", { sample: entry.id }) }, "Read sample"));
    }

    const sample = (entry.acquisitions || []).find((a) => /sample|preview/.test(a.rel || ""));
    // The library did not answer: the availability and actions are what shelf saw before, and the page says so (in
    // the host's words, with how long ago).
    const note = entry.libraryAnswered === false && entry.availabilityNote
      ? h("p", { id: "availability-note", class: "message" }, entry.availabilityNote)
      : null;
    const facts = [
      ["Format", formatWords(entry)],
      ["Availability", h("span", { id: "availability" }, availabilityWords(entry))],
      entry.availability && entry.availability.until && ["Until", day(entry.availability.until)],
      entry.publisher && ["Publisher", entry.publisher],
      entry.published && ["Published", day(entry.published)],
      entry.language && ["Language", languageName(entry.language)],
      entry.categories && entry.categories.length && ["Subjects", entry.categories.join(", ")],
    ].filter(Boolean);

    const branches = (entry.branches || []).length ? [
      h("h2", { id: "branches-heading" }, "Reserve a physical copy"),
      h("ul", { class: "branches", "aria-labelledby": "branches-heading" }, entry.branches.map((branch) => h("li", {},
        h("span", {}, branch.name, branch.availability && branch.availability.words ? ` (${branch.availability.words})` : ""),
        // A branch whose copy is held already is not offered again (the library would refuse a second hold).
        (entry.heldBranches || []).includes(branch.name)
          ? h("span", { class: "held" }, "On hold for you")
          : actionButton(app, entry, entry.account, "reserve", (result) => redraw(result), { label: `Reserve at ${branch.name}`, body: { branch: branch.name } })))),
    ] : [];

    replace(main,
      h("p", {}, h("a", { href: catalogAddress() }, "Back to the catalog")),
      h("h1", {}, entry.title),
      h("div", { class: "details" },
        cover(entry, "large"),
        h("div", { class: "facts" },
          authors(entry) && h("p", { class: "authors" }, authors(entry)),
          h("dl", {}, facts.map(([name, value]) => [h("dt", {}, name), h("dd", {}, value)])),
          note,
          entry.supported === false && h("p", { class: "unsupported" }, "Not supported on this device: no installed plugin opens this format."),
          actions, status, wishControl(app, entry),
          h("h2", {}, "Description"),
          h("p", { class: "summary" }, entry.summary || "The library gives no description of this title."),
          branches)));
    drawActions();
  },
};

/**
 * "Add to wish list" or "Remove from wish list", with what it did said beside it in the host's words; focus stays on
 * the button, which becomes the other one.
 */
function wishControl(app, entry) {
  // A wish is for a title the patron cannot read yet: one on loan offers none (unless wished before).
  const state = (entry.availability || {}).state;
  if (!entry.wish && (state === "loaned" || state === "open-access")) return h("div", { id: "wish-area" });
  const said = h("p", { id: "wish-result", class: "message", hidden: true, tabindex: "-1" });
  const holder = h("div", { class: "wish" });
  const draw = () => {
    const button = entry.wish
      ? h("button", { type: "button", class: "secondary", id: "wish-toggle", "data-wish": "remove" }, "Remove from wish list")
      : h("button", { type: "button", class: "secondary", id: "wish-toggle", "data-wish": "add" }, "Add to wish list");
    button.addEventListener("click", async () => {
      if (button.getAttribute("aria-disabled") === "true") return;
      button.setAttribute("aria-disabled", "true");
      let message;
      let failed = false;
      try {
        if (entry.wish) {
          message = (await app.api.delete(`/api/wishlist/${entry.wish.id}`)).message;
          delete entry.wish;
        } else {
          const wish = await app.api.post("/api/wishlist", { title: entry.title, author: (entry.authors || [])[0] || "" });
          message = wish.message;
          entry.wish = { id: wish.id };
        }
      } catch (error) {
        message = app.explain(error);
        failed = true;
      }
      said.hidden = false;
      said.className = failed ? "message error" : "message";
      replace(said, message);
      app.announce(message);
      draw();
      holder.querySelector("button").focus();
    });
    replace(holder, button);
  };
  draw();
  return h("div", { id: "wish-area" }, holder, said);
}
