// How current a page of loans or holds is: drawn at once from what shelf knows, then the library is asked (the server
// asks at most once a minute) and the page drawn again with its answer. "Check now" asks again; the line beside it
// says, in the host's words, when shelf last asked and whether the library answered.
import { h } from "../dom.js";

/**
 * The line above the list. `answer` is the last /api/library/check answer (null: the question is on its way);
 * `ask(force)` asks again and draws the page with the answer.
 */
export function checkLine(answer, ask) {
  const button = h("button", { type: "button", class: "secondary", id: "check-now" }, "Check now");
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-disabled") === "true") return;
    button.setAttribute("aria-disabled", "true");
    button.textContent = "Checking…";
    ask(true);
  });
  if (!answer) {
    button.setAttribute("aria-disabled", "true");
    button.textContent = "Checking…";
  }
  return h("div", { class: "library-check", id: "library-check" },
    h("p", { id: "library-check-words", class: answer && !answer.answered ? "stale" : null },
      answer ? [answer.message, answer.hint ? ` ${answer.hint}` : ""] : ""),
    button);
}

/**
 * Asks the server whether the library has news (`force`: Check now), answered with when shelf last asked; a failure
 * is an answer too, in the same words a failed call shows anywhere.
 * @returns {Promise<{asked?: boolean, answered: boolean, message: string, hint?: string}>}
 */
export async function askLibrary(app, force) {
  try {
    return await app.api.post("/api/library/check", { force });
  } catch (error) {
    return { answered: false, message: app.explain(error) };
  }
}

/**
 * Draws again with `draw()` and puts focus back where it was: the heading, a control by its id, or the same control
 * (by its place among the row's links and buttons) of the same row when it is still there; else the check line's
 * button. A redraw never drops focus to the page body.
 */
export async function keepingFocus(main, draw) {
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && main.contains(active);
  const focusable = (row) => [...row.querySelectorAll("a[href], button")];
  let find = () => null;
  if (inside && active.tagName === "H1") find = () => main.querySelector("h1");
  else if (inside && active.id) {
    const id = active.id;
    find = () => main.querySelector(`#${CSS.escape(id)}`);
  } else if (inside) {
    const row = active.closest("[data-key]");
    if (row instanceof HTMLElement) {
      const key = row.dataset.key || "";
      const index = focusable(row).indexOf(active);
      find = () => {
        const again = [...main.querySelectorAll("[data-key]")].find((r) => r instanceof HTMLElement && r.dataset.key === key);
        return again ? focusable(again)[index] || null : null;
      };
    }
  }
  await draw();
  if (!inside) return;
  const again = find() || main.querySelector("#check-now");
  if (!(again instanceof HTMLElement)) return;
  if (again.tagName === "H1") again.setAttribute("tabindex", "-1");
  again.focus();
}
