// Notifications, newest first, in the exact words shelf shows on the desktop; each leads where it says:
// Reservations for holds, My Books for loans, the title's details for wished titles (or on request).
import { h, replace, day, link } from "../dom.js";

// A notice a later one replaced (a week left, then a day left) no longer applies either: both read alike.
const stateWords = { unread: "New", read: "Opened", withdrawn: "No longer applies", superseded: "No longer applies" };

// A title's details are asked of the notification's own library: the same ID may be another title, or another
// copy, at the account in use.
export function target(route, account) {
  if (route === "reservations") return "#/reservations";
  if (route === "loans") return "#/my-books";
  if (route === "accounts") return "#/accounts";
  if (route && route.startsWith("book:")) return link("book", account ? { id: route.slice(5), account } : { id: route.slice(5) });
  return "#/catalog";
}

export default {
  title: "Notifications",

  async render(main, params, app) {
    const list = await app.api.get("/api/notifications", { all: "true", limit: 200 });
    replace(main, h("h1", {}, "Notifications"),
      list.items.length
        ? h("ul", { class: "rows" }, list.items.map((notification) => row(app, notification)))
        : h("p", { class: "empty" }, "No notifications. shelf tells you here when a hold is ready or a loan is ending."));
  },
};

function row(app, notification) {
  const open = async (event, book) => {
    event.preventDefault();
    try {
      const opened = await app.api.post(`/api/notifications/${notification.id}/open`, { book });
      location.hash = target(opened.route, notification.account);
    } catch (error) {
      app.announce(app.explain(error));
    }
  };
  return h("li", { class: `notification ${notification.state}` },
    h("div", { class: "grow" },
      h("p", {}, h("a", { href: target(notification.route, notification.account), onclick: (event) => open(event, false) }, notification.text)),
      h("p", { class: "state" }, `${stateWords[notification.state] || notification.state} · ${day(notification.created)}`)),
    notification.bookRoute && notification.bookRoute !== notification.route
      ? h("a", { href: target(notification.bookRoute, notification.account), onclick: (event) => open(event, true) }, `Details of “${notification.title}”`)
      : null);
}
