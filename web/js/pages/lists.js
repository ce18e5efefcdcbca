// Reading lists: the wish list and the titles on the patron's reading-list services, each with how it stands at the
// patron's library (the host's words) and Get or Reserve where that applies; the services themselves, connected
// from here (Connect signs in through the service's own page where it has one, and the browser comes back here:
// `#/lists?signin=SERVICE`) or disconnected.
import { h, replace, count, link } from "../dom.js";
import { notice } from "../notices.js";
import { outcomeMessage, focusAfter, actionButton } from "../components/actions.js";

export default {
  title: "Reading lists",

  // `outcome`: what the form or a button did, drawn with the page again (actions.js outcomeMessage).
  async render(main, params, app, outcome = null) {
    const [wishlist, lists, known] = await Promise.all([
      app.api.get("/api/wishlist"), app.api.get("/api/lists"), app.api.get("/api/lists/services")]);
    const wishes = wishlist.wishes || [];
    const entries = lists.entries || [];
    const services = known.services || [];
    // Back from a service's sign-in page: how it went, in the host's words (it may still be reading the lists).
    if (!outcome && params.signin) {
      const service = services.find((s) => s.service === params.signin);
      if (service && service.signIn) {
        if (service.signIn.state === "waiting") {
          window.setTimeout(() => { if (main.isConnected) this.render(main, params, app); }, 1000);
        }
        outcome = service.signIn.state === "failed" ? { error: service.signIn.message } : { message: service.signIn.message };
      }
    }
    const again = async (result) => {
      await this.render(main, { ...params, signin: undefined }, app, result);
      focusAfter(main);
    };

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
      if (!title.value.trim()) return refuse(notice("pages.wishWithoutTitle"));
      try {
        const wish = await app.api.post("/api/wishlist", { title: title.value.trim(), author: author.value.trim() });
        await this.render(main, params, app, { message: wish.message });
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
        ? h("ul", { class: "rows", "aria-labelledby": "wish-heading" }, wishes.map((wish) => h("li", { "data-wish": String(wish.id) },
            h("div", { class: "grow" },
              h("h3", {}, titleLink(wish.title, wish.atLibrary) || (wish.entryId ? h("a", { href: link("book", { id: wish.entryId, account: wish.account }) }, wish.title) : wish.title)),
              wish.authors && wish.authors.length ? h("p", { class: "authors" }, `by ${wish.authors.join(", ")}`) : null),
            standing(wish.atLibrary),
            h("div", { class: "actions" },
              getOrReserve(app, wish.atLibrary, again),
              h("button", { type: "button", class: "secondary", "data-remove-wish": String(wish.id),
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
      h("h2", { id: "services-heading" }, "Your reading-list services"),
      services.length
        // The connected ones first, with their lists; then the forms that connect the others.
        ? [...services.filter((s) => s.connected), ...services.filter((s) => !s.connected)]
            .map((service) => serviceSection(this, main, params, app, service, entries, again))
        : h("p", { class: "empty" }, "No reading-list plugin is installed."));
    // What the form did is said last (the count would drown it).
    if (message) app.announce(message.textContent);
    else if (wishes.length) app.announce(`${count(wishes.length, "wished title")}.`);
  },
};

/** One service: its lists with each title's standing when connected, else its Connect form. */
function serviceSection(page, main, params, app, service, entries, again) {
  const heading = `service-${service.service}`;
  const mine = entries.filter((entry) => entry.service === service.service);
  const shelves = [...new Set(mine.map((entry) => entry.shelf))];
  return h("section", { class: "service", "aria-labelledby": heading, "data-service": service.service },
    h("h3", { id: heading }, service.name, service.connected ? h("span", { class: "service-state" }, "Connected") : null),
    service.pullError ? h("p", { class: "error" }, service.pullError) : null,
    // A sign-in under way (its page left open elsewhere) can be begun again.
    service.signIn && service.signIn.state === "waiting" ? connectForm(page, main, params, app, service, again) : null,
    service.connected
      ? [
          shelves.map((shelf) => [
            h("h4", { id: `${heading}-${shelf}` }, mine.find((entry) => entry.shelf === shelf).shelfName || shelf),
            h("ul", { class: "rows", "aria-labelledby": `${heading}-${shelf}` },
              mine.filter((entry) => entry.shelf === shelf).map((entry) => h("li", {},
                h("div", { class: "grow" },
                  h("p", { class: "title" }, titleLink(entry.title, entry.atLibrary) || entry.title),
                  entry.authors && entry.authors.length ? h("p", { class: "authors" }, `by ${entry.authors.join(", ")}`) : null),
                standing(entry.atLibrary),
                h("div", { class: "actions" }, getOrReserve(app, entry.atLibrary, again)))))]),
          h("button", { type: "button", class: "secondary", "data-disconnect": service.service, onclick: async () => {
            try {
              await again(await app.api.delete(`/api/lists/services/${encodeURIComponent(service.service)}`));
            } catch (error) {
              await again({ error: app.explain(error) });
            }
          } }, `Disconnect ${service.name}`),
        ]
      : connectForm(page, main, params, app, service, again));
}

/** The service's settings as its plugin describes them; addresses of the service itself are folded away. */
function connectForm(page, main, params, app, service, again) {
  const field = (setting) => {
    const id = `setting-${service.service}-${setting.key}`;
    return h("div", { class: "field" },
      h("label", { for: id }, setting.label),
      h("input", { id, name: setting.key, "data-secret": setting.secret ? "true" : null,
        // A file setting (a Goodreads export) is chosen here and sent with the form: the server keeps it.
        type: setting.type === "file" ? "file" : setting.secret ? "password" : setting.type === "url" ? "url" : "text",
        accept: setting.type === "file" ? ".csv,text/csv" : null,
        autocomplete: setting.secret ? "off" : null, value: setting.value || null }));
  };
  const plain = service.settings.filter((setting) => setting.type !== "url");
  const addresses = service.settings.filter((setting) => setting.type === "url");
  const form = h("form", { class: "connect-form", "data-connect": service.service, onsubmit: async (event) => {
    event.preventDefault();
    const settings = {}, secrets = {}, files = {};
    for (const input of form.querySelectorAll("input")) {
      if (input.type === "file") {
        if (input.files && input.files[0]) files[input.name] = await input.files[0].text();
      } else if (input.value.trim()) {
        (input.dataset.secret ? secrets : settings)[input.name] = input.value.trim();
      }
    }
    const button = form.querySelector("button[type=submit]");
    button.setAttribute("aria-disabled", "true");
    try {
      const answer = await app.api.post(`/api/lists/services/${encodeURIComponent(service.service)}/connect`, { settings, secrets, files });
      // A sign-in: off to the service's own page, which sends the browser back here.
      if (answer.url) return window.location.assign(answer.url);
      await again(answer.error ? { error: answer.message } : answer);
    } catch (error) {
      button.removeAttribute("aria-disabled");
      await again({ error: app.explain(error) });
    }
  } },
    plain.map(field),
    addresses.length ? h("details", {}, h("summary", {}, "Service addresses"), addresses.map(field)) : null,
    h("button", { type: "submit" }, `Connect ${service.name}`));
  return form;
}

/** How a title stands at the patron's library, in the host's words. */
function standing(atLibrary) {
  if (!atLibrary) return null;
  const state = { available: "state-available", ready: "state-ready", loaned: "state-available", reserved: "state-reserved" }[atLibrary.standing];
  return h("p", { class: `availability ${state || "state-unavailable"}` }, atLibrary.words);
}

/** Get or Reserve where it applies, acting on the catalog entry the title matched. */
function getOrReserve(app, atLibrary, again) {
  if (!atLibrary || !atLibrary.action || !atLibrary.entry) return null;
  const button = actionButton(app, atLibrary.entry, atLibrary.account, atLibrary.action, again);
  button.append(h("span", { class: "visually-hidden" }, ` “${atLibrary.entry.title}”`));
  return button;
}

/** The title, leading to its details at the library that has it (null when no catalog has it). */
function titleLink(title, atLibrary) {
  if (!atLibrary || !atLibrary.entry) return null;
  return h("a", { href: link("book", { id: atLibrary.entry.id, account: atLibrary.account }) }, title);
}
