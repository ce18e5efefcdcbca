// Building the page from data without innerHTML: text is always text, so a title from a catalog can never
// become markup.

/** h("a", {href: "#/x", class: "y"}, "text", child…): an element with attributes and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      element.className = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `element` holds. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** "1 title" / "3 titles". */
export function count(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

/** A date in the patron's words: "14 December 2026". */
export function day(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" });
}

/** The hash address of a page with its parameters. */
export function link(page, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ""));
  const text = query.toString();
  return `#/${page}${text ? "?" + text : ""}`;
}
