// Borrowing from any page: Get, Reserve, Return, Cancel hold, Download. A call that cannot reach shelf leaves its
// button waiting ("Waiting for connection…") and is sent again when the connection is back; a refusal is said in
// the library's own words. Download progress shows the bytes and a wait for the library, is announced calmly (at
// most every 5 seconds, never just before the end) and its end always.
import { h, replace } from "../dom.js";
import { OfflineError } from "../api.js";
import { notice } from "../notices.js";
import { confirmAction } from "./confirm.js";

const labels = {
  borrow: "Get",
  reserve: "Reserve",
  return: "Return",
  "cancel-hold": "Cancel hold",
  download: "Download",
  read: "Read",
  listen: "Listen",
};

/**
 * Read and Listen download what is needed first (the same call as Download), then open the book; an audiobook opens
 * in the player as soon as its first part is here (the download's `playable` event), the rest arriving behind.
 */
const endpoints = { read: "download", listen: "download" };

/**
 * What an action did, as a message for a page drawn again after it (null when there is nothing to say): the words
 * the button said, kept on the page, so a failure is seen as well as heard.
 */
export function outcomeMessage(result) {
  const words = result && (result.error || result.message);
  if (!words) return null;
  // Focusable, so a page drawn again can put focus on what the button did rather than drop it to the page.
  return h("p", { id: "action-result", class: result.error ? "message error" : "message", tabindex: "-1" }, words, whereToGo(result));
}

/** After a page is drawn again: focus on what the button did, else on `fallback` (a heading), never the page body. */
export function focusAfter(main, fallback = "h1") {
  const target = main.querySelector("#action-result") || main.querySelector(fallback) || main.querySelector("h1");
  if (!target) return;
  if (!target.hasAttribute("tabindex") && !target.matches("a, button, input")) target.setAttribute("tabindex", "-1");
  target.focus();
}

/** The way to what an outcome asks of the patron: signing in, when the library asks for it. */
export function whereToGo(result) {
  if (!result || result.kind !== "sign-in-refused") return null;
  return [" ", h("a", { href: "#/accounts" }, "Sign in on the Accounts page")];
}

/**
 * A button for `action` on `entry` at the library `account` names (the account of the row or page the entry comes
 * from: a title's id is the library's own, so another library may have the same one). `done(result)` runs after the
 * library answered; the button's own words say what is happening meanwhile, for everyone. `extra.question`
 * ({question, detail}, the host's words): asked first, and nothing is done unless the patron says yes (Return).
 * @param {any} app
 * @param {any} entry
 * @param {string | null | undefined} account the account's id; none only for a catalog browsed without an account
 * @param {string} action
 * @param {(result: any) => any} done
 * @param {any} [extra]
 */
export function actionButton(app, entry, account, action, done, extra = {}) {
  const label = extra.label || labels[action];
  const button = h("button", { type: "button", class: action === "return" || action === "cancel-hold" ? "secondary" : null,
    "data-action": action }, label);
  button.addEventListener("click", () => run(false));

  /** @param {boolean} asked the patron already said yes (a call sent again once the connection is back) */
  async function run(asked) {
    if (button.getAttribute("aria-disabled") === "true") return;
    if (!asked && extra.question && !(await confirmAction({ ...extra.question, yes: `${label} it`, no: "Keep it" }))) return;
    button.setAttribute("aria-disabled", "true");
    const endpoint = endpoints[action] || action;
    replace(button, endpoint === "download" ? "Downloading…" : `${label}…`);
    // A download's events are followed before it is asked for: a small one can end before the answer comes.
    const stopFollowing = endpoint === "download" ? followDownload(app, entry, button, done, label, action === "listen") : null;
    try {
      const result = await app.api.post(`/api/book/${endpoint}`, { id: entry.id, ...(account ? { account } : {}),
        ...(action === "listen" ? { listen: true } : {}), ...(extra.body || {}) });
      if (stopFollowing) return;
      button.removeAttribute("aria-disabled");
      replace(button, label);
      // The server says what the library did in the host's words (CirculationResult), as they are to be shown.
      const words = (result && result.message) || "";
      if (words) app.announce(words);
      await done({ ...result, message: words });
    } catch (error) {
      if (stopFollowing) stopFollowing();
      if (error instanceof OfflineError) {
        waitForConnection(app, button, () => run(true));
        return;
      }
      button.removeAttribute("aria-disabled");
      replace(button, label);
      app.announce(app.explain(error));
      await done({ error: app.explain(error), kind: error.kind });
    }
  }
  return button;
}

/** The button waits, saying so, and the call goes again once shelf can be reached. */
function waitForConnection(app, button, again) {
  replace(button, "Waiting for connection…");
  button.setAttribute("aria-disabled", "true");
  app.announce(notice("connection.buttonWaits"));
  const retry = async () => {
    window.clearInterval(timer);
    button.removeAttribute("aria-disabled");
    again();
  };
  // The event stream says when shelf is back; a slow poll covers a stream that never dropped.
  const timer = window.setInterval(async () => {
    try {
      await fetch("/api/session", { credentials: "same-origin" });
      retry();
    } catch { /* still away */ }
  }, 3000);
}

/** Progress is said at most this often, so a screen reader is not kept talking. */
const SAY_PROGRESS_EVERY = 5000;
/** A progress is said only if nothing newer comes within this time: an end right after it is said alone. */
const SAY_PROGRESS_AFTER = 1500;

/** `listening`: the patron pressed Listen, so the player opens once the audiobook can play (`playable`). */
function followDownload(app, entry, button, done, label, listening) {
  let lastSaid = 0;
  let pending = null;
  let latest = null;
  const cancelPending = () => {
    if (pending) window.clearTimeout(pending);
    pending = null;
  };
  // The server says each state in the host's words (DownloadState, DownloadReport): the page only shows and says them.
  const stop = app.events.on("download", async (event) => {
    if (event.id !== entry.id) return;
    if (event.state === "started") {
      app.announce(event.message);
      lastSaid = Date.now();
    } else if (event.state === "progress") {
      // What is known: the bytes, and whether the library is keeping the rest waiting; never a made-up percentage.
      latest = event;
      if (event.label) replace(button, event.label);
      else if (typeof event.fraction === "number") replace(button, `Downloading… ${Math.round(event.fraction * 100)}%`);
      const due = event.waiting ? 0 : Math.max(0, lastSaid + SAY_PROGRESS_EVERY - Date.now());
      if (pending || (!event.waiting && due > 0)) return;
      pending = window.setTimeout(() => {
        pending = null;
        lastSaid = Date.now();
        if (latest) app.announce(latest.message);
      }, SAY_PROGRESS_AFTER);
    } else if (event.state === "playable" && listening) {
      stop();
      cancelPending();
      app.announce(event.message);
      await done({ playable: event.book, message: event.message });
    } else if (event.state === "done") {
      stop();
      cancelPending();
      app.announce(event.message);
      await done({ downloaded: event.download || {}, message: event.message });
    } else if (event.state === "failed") {
      stop();
      cancelPending();
      button.removeAttribute("aria-disabled");
      replace(button, label);
      app.announce(event.message);
      await done({ error: event.message });
    }
  });
  return () => {
    cancelPending();
    stop();
  };
}
