// Where `shelf serve --open FILE` lands (#/open?request=TOKEN): the server puts the book on the shelf (as
// `shelf add FILE` does, unless it is there already) and says where it opens: the reader for an eBook, the player
// for an audiobook. This page only goes there, or says why it cannot.
import { h, replace } from "../dom.js";
import { notice } from "../notices.js";

export default {
  title: "Open a book",
  section: "my-books",
  async render(main, params, app) {
    replace(main, h("h1", {}, "Opening a book"), h("p", { class: "loading" }, notice("pages.puttingOnShelf")));
    try {
      const opened = await app.api.post("/api/open", { request: params.request || "" });
      app.announce(notice("pages.opening"));
      location.replace(opened.address);
    } catch (error) {
      replace(main, h("h1", {}, notice("reader.notOpened")),
        h("p", { role: "alert" }, app.explain(error)),
        h("p", {}, h("a", { href: "#/my-books" }, "Go to My Books")));
    }
  },
};
