// Reading lists and the wish list: wished titles with their availability at the library in words, and the
// entries pulled from reading-list services.
import { h, replace, link, count } from "../dom.js";
import { outcomeMessage, focusAfter } from "../components/actions.js";

export default {
  title: "Reading lists",

  // `outcome`: what the form did, drawn with the page again (actions.js outcomeMessage).
  async render(main, params, app, outcome = null) {
    const [wishlist, lists] = await Promise.all([app.api.get("/api/wishlist"), app.api.get("/api/lists")]);
    const wishes = wishlist.wishes || [];
    const entries = lists.entries || [];
    const title = h("input", { type: "text", id: "wish-title", required: true });
    const author = h("input", { type: "text", id: "wish-author" });
    const form = h("form", { class: "inline-form", onsubmit: async (event) => {
      event.preventDefault();
      const old = form.querySelector(".error");
      if (old) old.remove();
      const refuse = (words) => {
        // Beside the form, seen as well as heard.
        form.append(h("p", { class: "error" }, words));
        app.announce(words);
      };
      if (!title.value.trim()) return refuse("Type a title or an ISBN to wish for.");
      try {
        const wish = await app.api.post("/api/wishlist", { title: title.value.trim(), author: author.value.trim() });
        await this.render(main, params, app, { message: `Added “${wish.title}” to your wish list. ${whereWords(wish)}.` });
        main.querySelector("#wish-title").focus();
      } catch (error) {
        refuse(app.explain(error));
      }
    } },
      h("div", { class: "field" }, h("label", { for: "wish-title" }, "Title or ISBN"), title),
      h("div", { class: "field" }, h("label", { for: "wish-author" }, "Author (optional)"), author),
      h("button", { type: "submit" }, "Add to wish list"));

    const message = outcomeMessage(outcome);
    replace(main, h("h1", {}, "Reading lists"), message,
      h("h2", { id: "wish-heading" }, "Wish list"),
      wishes.length
        ? h("ul", { class: "rows", "aria-labelledby": "wish-heading" }, wishes.map((wish) => h("li", {},
            h("div", { class: "grow" },
              h("h3", {}, wish.entryId ? h("a", { href: link("book", { id: wish.entryId, account: wish.account }) }, wish.title) : wish.title),
              wish.authors && wish.authors.length ? h("p", { class: "authors" }, `by ${wish.authors.join(", ")}`) : null),
            h("p", { class: wish.available ? "availability state-available" : "availability state-unavailable" },
              whereWords(wish)),
            h("div", { class: "actions" }, h("button", { type: "button", class: "secondary", "data-remove-wish": String(wish.id),
              onclick: async () => {
                try {
                  const removed = await app.api.delete(`/api/wishlist/${wish.id}`);
                  await this.render(main, params, app, { message: removed.message });
                } catch (error) {
                  await this.render(main, params, app, { error: app.explain(error) });
                }
                focusAfter(main, "#wish-heading");
              } }, "Remove", h("span", { class: "visually-hidden" }, ` “${wish.title}” from the wish list`))))))
        : h("p", { class: "empty" }, "Your wish list is empty."),
      form,
      h("h2", { id: "lists-heading" }, "From your reading-list services"),
      entries.length
        ? h("ul", { class: "rows", "aria-labelledby": "lists-heading" }, entries.map((entry) => h("li", {},
            h("div", { class: "grow" },
              h("h3", {}, entry.title),
              entry.authors && entry.authors.length ? h("p", { class: "authors" }, `by ${entry.authors.join(", ")}`) : null),
            h("p", {}, `${entry.service} · ${entry.shelf || ""}`))))
        : h("p", { class: "empty" }, "No reading lists yet: connect Goodreads or Google Books with ", h("code", {}, "shelf lists connect"), "."));
    // What the form did is said last (the count would drown it).
    if (message) app.announce(message.textContent);
    else if (wishes.length) app.announce(`${count(wishes.length, "wished title")}.`);
  },
};

/** Where a wished title is, in a patron's words: its availability at the library named as everywhere in the app
 * (the document's `words` are the command line's, with the account's id and the title's technical id). */
function whereWords(wish) {
  if (!wish.matched) return "Not in any library's catalog yet";
  const availability = wish.availability || "availability unknown";
  return `${availability.charAt(0).toUpperCase()}${availability.slice(1)} at ${wish.library || "your library"}`;
}
