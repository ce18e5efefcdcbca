import { h, replace } from "../dom.js";

export default {
  title: "Page not found",
  render(main) {
    replace(main, h("h1", {}, "Page not found"), h("p", {}, h("a", { href: "#/catalog" }, "Go to the catalog")));
  },
};
