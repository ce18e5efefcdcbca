// shelf's library app: a page per address (#/catalog, #/book?id=…, #/my-books, …), the badges in the top bar,
// one polite live region for what a screen reader should hear, and a notice while the server cannot be reached.
import { api, ApiError, OfflineError } from "./api.js";
import { h, replace } from "./dom.js";
import * as events from "./events.js";
import { pages } from "./pages/index.js";
import { loadNotices, notice } from "./notices.js";

const main = document.getElementById("main");
const announcer = document.getElementById("announcer");
let current = { name: null, page: null };
let routeCount = 0;

let lastSaid = null;

/** Says `text` to screen readers through the polite live region (the same text twice is said twice). */
export function announce(text) {
  lastSaid = text;
  announcer.textContent = "";
  window.setTimeout(() => { announcer.textContent = text; }, 50);
}

/** Says `text` unless it is what was said last: a page drawn again to show an outcome the button already said. */
function announceUnlessSaid(text) {
  if (text !== lastSaid) announce(text);
}

/** What every page gets: the API, the events, the announcer, and a way to show an error in words. */
const app = {
  api,
  events,
  announce,
  announceUnlessSaid,
  refreshStatus,
  /** A message for a failed call: what happened and what to do, in the host's words as they came. */
  explain(error) {
    if (error instanceof OfflineError) return notice("connection.lost");
    if (error instanceof ApiError) return error.hint ? `${error.message} ${error.hint}` : error.message;
    return String(error.message || error);
  },
};

function parseHash() {
  const hash = location.hash || "#/catalog";
  const [path, query = ""] = hash.slice(2).split("?");
  return { name: path || "catalog", params: Object.fromEntries(new URLSearchParams(query)) };
}

async function route() {
  if (location.hash && !location.hash.startsWith("#/")) return;  // the skip link's #main
  const { name, params } = parseHash();
  const page = pages[name] || pages["not-found"];
  for (const link of document.querySelectorAll("nav a[data-page]")) {
    if (!(link instanceof HTMLElement)) continue;
    if (link.dataset.page === (page.section || name)) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (current.page === page && page.update) {
    page.update(params);
    return;
  }
  current = { name, page };
  document.title = `${page.title} · shelf`;
  replace(main, h("p", { class: "loading" }, "Loading…"));
  await loadNotices();
  // The page draws into a view of its own, shown only if no later address replaced it meanwhile: a slow page
  // never draws over the one the patron went to next.
  const view = h("div", { class: "page" });
  const token = ++routeCount;
  try {
    await page.render(view, params, app);
  } catch (error) {
    if (token !== routeCount) return;
    if (error instanceof ApiError && error.status === 401) return showLocked(error);
    replace(view, h("h1", { tabindex: "-1" }, page.title), h("p", { class: "message error", role: "alert" }, app.explain(error)));
  }
  if (token !== routeCount) return;
  replace(main, view);
  // A new page: focus its heading, so a screen reader starts there and keyboard users are not left at the top.
  const heading = main.querySelector("h1");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }
}

/** The server did not let this browser in: its refusal, in the host's words (what happened, then the way in). */
function showLocked(error) {
  document.title = "Not let in · shelf";
  replace(main, h("h1", { tabindex: "-1" }, error.message), error.hint ? h("p", {}, error.hint) : null);
  main.querySelector("h1").focus();
}

/** The counts in the top bar: holds ready to borrow on Reservations, unread notifications. */
function showStatus(status) {
  const ready = status.readyToBorrow || 0;
  const unread = status.unreadNotifications || 0;
  badge("ready-badge", ready, `${ready} ready to borrow`);
  badge("unread-badge", unread, `${unread} unread`);
}

function badge(id, n, words) {
  const element = document.getElementById(id);
  element.hidden = n === 0;
  replace(element, h("span", { "aria-hidden": "true" }, String(n)), h("span", { class: "visually-hidden" }, `, ${words}`));
}

async function refreshStatus() {
  try {
    showStatus(await api.get("/api/status"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) showLocked(error);
  }
}

function showConnection(connected) {
  const element = document.getElementById("connection");
  element.textContent = connected ? "" : notice("connection.lost");
  document.body.classList.toggle("offline", !connected);
  if (connected) refreshStatus();
}

document.querySelector("[data-skip]").addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});

loadNotices();
events.on("status", showStatus);
// A new notification is said once, politely, in the words the desktop shows.
events.on("notification", (notification) => announce(notification.text));
events.onConnection(showConnection);
window.addEventListener("hashchange", route);
window.addEventListener("online", () => showConnection(true));
events.start();
refreshStatus();
route();
