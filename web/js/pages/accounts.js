// Library accounts: add a library by its address, sign in with card and PIN, sign out, choose the library the
// catalog shows, remove one.
import { h, replace } from "../dom.js";

export default {
  title: "Accounts",

  async render(main, params, app) {
    const accounts = (await app.api.get("/api/accounts", { limit: 500 })).items;
    const again = async (message, focus) => {
      await this.render(main, params, app);
      if (message) app.announce(message);
      (main.querySelector(focus) || main.querySelector("h1")).focus();
    };
    const url = h("input", { type: "url", id: "library-url", required: true, placeholder: "https://library.example/" });
    const addForm = h("form", { class: "inline-form", onsubmit: async (event) => {
      event.preventDefault();
      await attempt(app, addForm, async () => {
        const account = await app.api.post("/api/accounts", { url: url.value.trim() });
        await again(account.message, `#account-${account.id}`);
      });
    } },
      h("div", { class: "field" }, h("label", { for: "library-url" }, "Library address"), url),
      h("button", { type: "submit" }, "Add library"));

    replace(main, h("h1", {}, "Accounts"),
      accounts.length
        ? h("ul", { class: "rows" }, accounts.map((account) => row(app, account, again)))
        : h("p", { class: "empty" }, "No library yet. Add one by its address."),
      h("h2", {}, "Add a library"), addForm);
  },
};

/** Runs `work`; a failure is said next to the form and to screen readers. */
async function attempt(app, form, work) {
  const old = form.querySelector(".error");
  if (old) old.remove();
  try {
    await work();
  } catch (error) {
    const message = h("p", { class: "error", role: "alert" }, app.explain(error));
    form.append(message);
  }
}

function row(app, account, again) {
  const needsSignIn = (account.signIn || []).length > 0;
  const barcode = h("input", { type: "text", id: `barcode-${account.id}`, autocomplete: "username", required: true });
  const pin = h("input", { type: "password", id: `pin-${account.id}`, autocomplete: "current-password" });
  const signIn = h("form", { class: "inline-form", "aria-label": `Sign in to ${account.title}`, onsubmit: async (event) => {
    event.preventDefault();
    await attempt(app, signIn, async () => {
      const done = await app.api.post(`/api/accounts/${encodeURIComponent(account.id)}/sign-in`, { barcode: barcode.value.trim(), pin: pin.value });
      await again(done.message, `#account-${account.id}`);
    });
  } },
    h("div", { class: "field" }, h("label", { for: `barcode-${account.id}` }, "Library card number"), barcode),
    h("div", { class: "field" }, h("label", { for: `pin-${account.id}` }, "PIN"), pin),
    h("button", { type: "submit" }, "Sign in"));
  // The server says what each change did in the host's words (AccountOutcome): the page says them as they are.
  const post = (path) => async () => {
    try {
      const done = await app.api.post(`/api/accounts/${encodeURIComponent(account.id)}/${path}`);
      await again(done.message, `#account-${account.id}`);
    } catch (error) {
      app.announce(app.explain(error));
    }
  };
  return h("li", {},
    h("div", { class: "grow" },
      h("h2", { id: `account-${account.id}`, tabindex: "-1" }, account.title),
      h("p", { class: "authors" }, account.catalog),
      h("p", {}, account.isDefault ? "Current library · " : "",
        needsSignIn ? (account.signInRefused ? "Sign-in refused" : account.signedIn ? "Signed in" : "Not signed in") : "No sign-in needed",
        account.syncError ? ` · Last sync failed: ${account.syncError}` : ""),
      needsSignIn && !account.signedIn ? signIn : null,
      account.signUp && !account.signedIn ? h("p", {}, h("a", { href: account.signUp, rel: "noopener" }, "Sign up for a library card")) : null),
    h("div", { class: "actions" },
      account.isDefault ? null : h("button", { type: "button", onclick: post("use") }, "Use this library"),
      needsSignIn && account.signedIn ? h("button", { type: "button", class: "secondary", onclick: post("sign-out") }, "Sign out") : null,
      h("button", { type: "button", class: "secondary", onclick: async () => {
        try {
          const done = await app.api.delete(`/api/accounts/${encodeURIComponent(account.id)}`);
          await again(done.message, "h1");
        } catch (error) {
          app.announce(app.explain(error));
        }
      } }, "Remove")));
}
