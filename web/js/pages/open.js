// Where `shelf serve --open FILE` lands. The reader and the player (later versions of this app) take the file
// from here; until then the page says how to open it from the command line.
import { h, replace } from "../dom.js";

export default {
  title: "Open a book",
  section: "my-books",
  render(main, params) {
    const file = params.file || "";
    replace(main, h("h1", {}, "Open a book"),
      h("p", {}, "shelf was asked to open ", h("code", {}, file), "."),
      h("p", {}, "The reader and the player are not in the browser app yet. Until they are, ", h("code", {}, "shelf read FILE"),
        " and ", h("code", {}, "shelf listen FILE"), " open it in the terminal."),
      h("p", {}, h("a", { href: "#/my-books" }, "Go to My Books")));
  },
};
