// A question before an action the patron cannot take back from shelf (Return): a modal dialog that keeps focus
// inside it, opens on the safe answer, and gives focus back to the button that asked when it is refused.
import { h } from "../dom.js";

/**
 * Asks `question` (the host's words, with what follows from yes as `detail`); resolves true for `yes`.
 * @param {{question: string, detail?: string, yes: string, no: string}} words
 * @returns {Promise<boolean>}
 */
export function confirmAction({ question, detail, yes, no }) {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    const finish = (answer) => {
      dialog.close();
      dialog.remove();
      if (!answer && opener && opener.isConnected) opener.focus();
      resolve(answer);
    };
    const keep = h("button", { type: "button", class: "secondary", "data-answer": "no", onclick: () => finish(false) }, no);
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-question", "aria-describedby": detail ? "confirm-detail" : null },
      h("p", { id: "confirm-question", class: "question" }, question),
      detail ? h("p", { id: "confirm-detail" }, detail) : null,
      h("div", { class: "actions" }, h("button", { type: "button", "data-answer": "yes", onclick: () => finish(true) }, yes), keep));
    // Escape refuses, as the safe answer does.
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    keep.focus();
  });
}
