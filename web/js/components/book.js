// How a title shows anywhere in the app: a cover, its title linking to its details, authors, the format in
// words beside its icon, availability in words, and "Not supported on this device" where no plugin opens it.
import { h, link } from "../dom.js";

const palette = ["#1f5f8b", "#8b3a1f", "#2f6b3f", "#5b3f8b", "#7a5a12", "#355c6b", "#8b1f52"];

/** A cover drawn from the title (catalog entries carry no image yet); it says nothing a reader must hear. */
export function cover(entry, size = "") {
  let hash = 0;
  for (const c of entry.title || "") hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  const element = h("div", { class: `cover ${size}`, "aria-hidden": "true" }, entry.title);
  element.style.setProperty("background", palette[hash % palette.length]);
  return element;
}

export function formatWords(entry) {
  const id = entry.formatId || "ebook";
  const icon = id === "audiobook" ? "/icons/audiobook.svg" : "/icons/ebook.svg";
  return h("span", { class: "format" }, h("img", { src: icon, alt: "", width: 18, height: 18 }), entry.format || "eBook");
}

export function availabilityWords(entry) {
  const availability = entry.availability || {};
  return h("span", { class: `availability state-${availability.state || "unknown"}` }, availability.words || "Availability unknown");
}

export function authors(entry) {
  return entry.authors && entry.authors.length ? `by ${entry.authors.join(", ")}` : "";
}

/** One title in a list of cards; its heading level follows the section it is in. */
export function card(entry, level = 3) {
  return h("li", { class: "card" },
    cover(entry),
    h("div", {},
      h(`h${level}`, {}, h("a", { href: link("book", { id: entry.id }) }, entry.title)),
      authors(entry) && h("p", { class: "authors" }, authors(entry)),
      h("p", {}, formatWords(entry)),
      h("p", {}, availabilityWords(entry)),
      entry.supported === false && h("p", { class: "unsupported" }, "Not supported on this device")));
}

/** Where a book on this computer is read or heard: the reader (`from` says where its back arrow leads) or the player. */
export function openAddress(book, from = "shelf") {
  return book.formatId === "audiobook"
    ? link("listen", { book: book.id })
    : `/reader.html?${new URLSearchParams({ book: book.id, from })}`;
}

/** Read or Listen for a book on this computer, named with its title for a screen reader's list of links. */
export function openLink(book, from = "shelf") {
  const listen = book.formatId === "audiobook";
  return h("a", { class: "button", href: openAddress(book, from), "data-open": listen ? "listen" : "read" },
    listen ? "Listen" : "Read", h("span", { class: "visually-hidden" }, listen ? ` to ${book.title}` : ` ${book.title}`));
}
