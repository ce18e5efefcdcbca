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
