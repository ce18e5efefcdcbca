// Where `shelf serve --open FILE` lands (#/open?request=TOKEN): the server puts the book on the shelf (as
// `shelf add FILE` does, unless it is there already) and says where it opens: the reader for an eBook, the player
// for an audiobook. This page only goes there, or says why it cannot.
import { h, replace } from "../dom.js";

export default {
  title: "Open a book",
  section: "my-books",
  async render(main, params, app) {
    replace(main, h("h1", {}, "Opening a book"), h("p", { class: "loading" }, "Putting it on your shelf…"));
    try {
      const opened = await app.api.post("/api/open", { request: params.request || "" });
      app.announce(`Opening ${opened.book.title}.`);
      location.replace(opened.address);
    } catch (error) {
      replace(main, h("h1", {}, "This book could not be opened"),
        h("p", { role: "alert" }, app.explain(error)),
        h("p", {}, h("a", { href: "#/my-books" }, "Go to My Books")));
    }
  },
};
