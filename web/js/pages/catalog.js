// The catalog: lanes of titles, format tabs (All / eBooks / Audiobooks) as a real tab list, search that keeps
// the chosen tab, and an "Available now" filter. Choosing a tab keeps focus on the tab; when the titles have
// loaded, the polite live region says how many, in the host's words (the answer's `said`).
import { h, replace, count, link } from "../dom.js";
import { card } from "../components/book.js";

const defaultTabs = [
  { format: "all", title: "All" },
  { format: "ebook", title: "eBooks" },
  { format: "audiobook", title: "Audiobooks" },
];

let state = null;

const REMEMBERED = "shelf.catalog";

function rememberCatalog(address) {
  try { sessionStorage.setItem(REMEMBERED, address); } catch { /* storage refused: the link goes to the catalog */ }
}

/** The catalog as the patron last left it in this tab (its search, format tab and filter), for a way back to it. */
export function catalogAddress() {
  try { return sessionStorage.getItem(REMEMBERED) || "#/catalog"; } catch { return "#/catalog"; }
}

export default {
  title: "Catalog",

  async render(main, params, app) {
    state = { app, format: params.format || null, q: params.q || "", available: params.available === "true", tabs: defaultTabs,
              document: null, request: 0, tablist: null, summary: null, panel: null, libraryTitle: null };
    const heading = h("h1", { id: "catalog-heading" }, "Catalog");
    const search = h("input", { type: "search", id: "catalog-search", name: "q", value: state.q, autocomplete: "off" });
    const form = h("form", { role: "search", class: "inline-form", "aria-label": "Catalog", onsubmit: (event) => {
      event.preventDefault();
      state.q = search.value.trim();
      load({ announceAll: true });
    } },
      h("div", { class: "field" }, h("label", { for: "catalog-search" }, "Search the catalog"), search),
      h("button", { type: "submit" }, "Search"));
    const filter = h("input", { type: "checkbox", id: "available-now", onchange: (event) => {
      state.available = event.target.checked;
      load({ announceAll: true });
    } });
    filter.checked = state.available;
    state.tablist = h("div", { role: "tablist", "aria-label": "Formats", onkeydown: onTabKey });
    state.summary = h("p", { class: "result-summary", id: "catalog-summary" });
    state.panel = h("section", { id: "catalog-results", role: "tabpanel", "aria-describedby": "catalog-summary" });
    state.libraryTitle = h("p", { id: "library-title", class: "authors" });
    replace(main, heading, state.libraryTitle,
      h("div", { class: "catalog-tools" }, form, state.tablist,
        h("label", { class: "filter", for: "available-now" }, filter, "Available now")),
      state.summary, state.panel);
    drawTabs();
    await load({ announceAll: false });
  },
};

function drawTabs() {
  const chosen = state.format || "all";
  replace(state.tablist, state.tabs.map((tab) => h("button", {
    type: "button", role: "tab", id: `tab-${tab.format}`, "aria-controls": "catalog-results",
    "aria-selected": String(tab.format === chosen), tabindex: tab.format === chosen ? "0" : "-1",
    onclick: () => choose(tab.format, false),
  }, tab.title)));
  state.panel.setAttribute("aria-labelledby", `tab-${chosen}`);
}

/** Chooses a tab: it stays chosen and keeps focus; the titles load in the panel and are announced. */
function choose(format, fromKeyboard) {
  if (format === (state.format || "all") && !fromKeyboard) return;
  state.format = format;
  for (const tab of state.tablist.querySelectorAll("[role=tab]")) {
    const selected = tab.id === `tab-${format}`;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    if (selected) tab.focus();
  }
  state.panel.setAttribute("aria-labelledby", `tab-${format}`);
  load({ announceAll: true });
}

function onTabKey(event) {
  const tabs = [...state.tablist.querySelectorAll("[role=tab]")];
  const index = tabs.indexOf(document.activeElement);
  if (index < 0) return;
  const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const tab = tabs[(next + tabs.length) % tabs.length];
  choose(tab.id.slice(4), true);
}

async function load({ announceAll }) {
  const request = ++state.request;
  const app = state.app;
  state.panel.setAttribute("aria-busy", "true");
  // The address says what is shown, without a new history entry per tab; a title's "Back to the catalog" goes
  // back to it (the search and the tab as they were).
  const address = link("catalog", { format: state.format, q: state.q, available: state.available ? "true" : "" });
  history.replaceState(null, "", address);
  rememberCatalog(address);
  let result;
  try {
    result = await app.api.get("/api/catalog", { format: state.format, q: state.q, available: state.available ? "true" : "" });
  } catch (error) {
    if (request !== state.request) return;
    state.panel.removeAttribute("aria-busy");
    replace(state.summary, "");
    if (error.kind === "no-library-yet") {
      // A first run: an invitation in the host's words, with the way to act on it.
      replace(state.panel, h("div", { class: "invitation", id: "invitation" },
        h("p", {}, error.message), h("p", {}, error.hint),
        h("p", {}, h("a", { class: "button", href: "#/accounts" }, "Add your library"))));
      return;
    }
    replace(state.panel, h("p", { class: "message error" }, app.explain(error)),
      error.kind === "unavailable" || error.kind === "bad-request" ? h("p", {}, h("a", { href: "#/accounts" }, "Add or choose a library")) : null);
    app.announce(app.explain(error));
    return;
  }
  if (request !== state.request) return;  // a later choice is loading
  state.document = result;
  if (result.formats && result.formats.length) {
    const offered = result.formats.map((f) => ({ format: f.format, title: f.title }));
    const active = result.formats.find((f) => f.active);
    if (!state.format && active) state.format = active.format;
    if (JSON.stringify(offered) !== JSON.stringify(state.tabs)) {
      const focused = document.activeElement && document.activeElement.getAttribute("role") === "tab";
      state.tabs = offered;
      drawTabs();
      if (focused) state.tablist.querySelector("[aria-selected=true]").focus();
    } else {
      syncTabs();
    }
  }
  // The library searched, not the feed's title ("Search results" during a search).
  replace(state.libraryTitle, result.library || "");
  drawResults(result);
  state.panel.removeAttribute("aria-busy");
  const words = result.said || "";
  replace(state.summary, words);
  if (announceAll) app.announce(words);
}

/** Keeps the selection shown when the tabs did not change (and the focus where it is). */
function syncTabs() {
  const chosen = state.format || "all";
  for (const tab of state.tablist.querySelectorAll("[role=tab]")) {
    const selected = tab.id === `tab-${chosen}`;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  state.panel.setAttribute("aria-labelledby", `tab-${chosen}`);
}

function drawResults(result) {
  const entries = result.entries || [];
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const sections = [];
  const shown = new Set();
  for (const lane of result.lanes || []) {
    const members = lane.entries.map((id) => byId.get(id)).filter(Boolean);
    if (!members.length) continue;
    members.forEach((entry) => shown.add(entry.id));
    sections.push(lane.title, members);
  }
  const rest = entries.filter((entry) => !shown.has(entry.id));
  const parts = [];
  for (let i = 0; i < sections.length; i += 2) parts.push(section(sections[i], sections[i + 1], false));
  if (rest.length) parts.push(section(sections.length ? "More titles" : (state.q ? "Results" : "Titles"), rest, !sections.length));
  if (!entries.length) {
    parts.push(h("p", { class: "empty" }, state.q ? result.said : "No titles here."));
  }
  if (result.nextCursor) {
    parts.push(h("p", {}, h("button", { type: "button", class: "secondary", onclick: (event) => more(event.target, result.nextCursor) }, "Show more titles")));
  }
  replace(state.panel, parts);
}

function section(title, entries, hiddenHeading) {
  const id = `lane-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return h("section", { "aria-labelledby": id },
    h("h2", { id, class: hiddenHeading ? "visually-hidden" : null }, title),
    h("ul", { class: "cards" }, entries.map((entry) => card(entry, 3))));
}

async function more(button, cursor) {
  button.setAttribute("aria-disabled", "true");
  try {
    const next = await state.app.api.get("/api/catalog", { format: state.format, q: state.q, available: state.available ? "true" : "", cursor });
    const list = state.panel.querySelector("section:last-of-type ul.cards");
    const firstNew = next.entries.length ? card(next.entries[0], 3) : null;
    if (firstNew) list.append(firstNew, ...next.entries.slice(1).map((entry) => card(entry, 3)));
    button.closest("p").remove();
    if (next.nextCursor) state.panel.append(h("p", {}, h("button", { type: "button", class: "secondary", onclick: (event) => more(event.target, next.nextCursor) }, "Show more titles")));
    state.app.announce(`${count(next.entries.length, "more title")} loaded.`);
    if (firstNew) firstNew.querySelector("a").focus();
  } catch (error) {
    button.removeAttribute("aria-disabled");
    state.app.announce(state.app.explain(error));
  }
}
