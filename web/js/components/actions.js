// Borrowing from any page: Get, Reserve, Return, Cancel hold, Download. A call that cannot reach shelf leaves its
// button waiting ("Waiting for connection…") and is sent again when the connection is back; a refusal is said in
// the library's own words. Download progress is announced calmly (at most every 15 seconds) and its end always.
import { h, replace } from "../dom.js";
import { OfflineError } from "../api.js";

const labels = {
  borrow: "Get",
  reserve: "Reserve",
  return: "Return",
  "cancel-hold": "Cancel hold",
  download: "Download",
};

/**
 * What an action did, as a message for a page drawn again after it (null when there is nothing to say): the words
 * the button said, kept on the page, so a failure is seen as well as heard.
 */
export function outcomeMessage(result) {
  const words = result && (result.error || result.message);
  if (!words) return null;
  return h("p", { id: "action-result", class: result.error ? "message error" : "message" }, words, whereToGo(result));
}

/** The way to what an outcome asks of the patron: signing in, when the library asks for it. */
export function whereToGo(result) {
  if (!result || result.kind !== "sign-in-refused") return null;
  return [" ", h("a", { href: "#/accounts" }, "Sign in on the Accounts page")];
}

/** The buttons a title offers in its state. */
export function actionsFor(entry) {
  const state = (entry.availability || {}).state;
  const list = [];
  if (state === "loaned") list.push("download", "return");
  else if (state === "ready") list.push("borrow", "cancel-hold");
  else if (state === "reserved") list.push("cancel-hold");
  else if (state === "open-access") list.push("download");
  else if (entry.canBorrow) list.push("borrow");
  else if (entry.canReserve) list.push("reserve");
  return list;
}

/**
 * A button for `action` on `entry`. `done(result)` runs after the library answered; the button's own words say
 * what is happening meanwhile, for everyone.
 */
export function actionButton(app, entry, action, done, extra = {}) {
  const label = extra.label || labels[action];
  const button = h("button", { type: "button", class: action === "return" || action === "cancel-hold" ? "secondary" : null,
    "data-action": action }, label);
  button.addEventListener("click", () => run());

  async function run() {
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    replace(button, action === "download" ? "Downloading…" : `${label}…`);
    // A download's events are followed before it is asked for: a small one can end before the answer comes.
    const stopFollowing = action === "download" ? followDownload(app, entry, button, done) : null;
    try {
      const result = await app.api.post(`/api/book/${action}`, { id: entry.id, ...(extra.body || {}) });
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
        waitForConnection(app, button, run);
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
  app.announce("Connection lost. The button waits and tries again when the connection is back.");
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

function followDownload(app, entry, button, done) {
  let lastSaid = Date.now();
  // The server says each state in the host's words (DownloadState): the page only says them.
  const stop = app.events.on("download", async (event) => {
    if (event.id !== entry.id) return;
    if (event.state === "started") {
      app.announce(event.message);
    } else if (event.state === "progress" && typeof event.fraction === "number") {
      replace(button, `Downloading… ${Math.round(event.fraction * 100)}%`);
      if (Date.now() - lastSaid > 15000) {
        lastSaid = Date.now();
        app.announce(event.message);
      }
    } else if (event.state === "done") {
      stop();
      app.announce(event.message);
      await done({ downloaded: event.download || {}, message: event.message });
    } else if (event.state === "failed") {
      stop();
      button.removeAttribute("aria-disabled");
      replace(button, "Download");
      app.announce(event.message);
      await done({ error: event.message });
    }
  });
  return stop;
}
