// The reader's panels (display, contents, bookmarks, search) are modal dialogs: focus goes into them, Escape
// closes them, and focus comes back to the control that opened them.

export function openPanel(dialog, opener, focusInside) {
  dialog.addEventListener('close', () => {
    if (opener?.isConnected) opener.focus();
  }, { once: true });
  dialog.showModal();
  const target = focusInside?.() ?? null;
  if (target) target.focus();
}

// Makes an element with text, e.g. element('a', {href: '#'}, 'Chapter 1').
export function element(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}
