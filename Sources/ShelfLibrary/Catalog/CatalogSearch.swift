import ShelfCore
import Foundation

/// Where a catalog's search goes: its OPDS 2 search template, or the template in its OpenSearch description, or a
/// plain `q=` on its search link; filled with the patron's words.
public enum CatalogSearch {
    /// The search template of the catalog whose root feed is `root`, or nil when it offers no search. `entryPoint`
    /// (a format tab's value) goes into an OpenSearch description's address, as Palace expects.
    public static func template(of root: CatalogFeed, client: CatalogClient, entryPoint: String? = nil) throws
        -> String?
    {
        guard let link = root.search ?? root.links.first(where: { $0.templated == true && $0.rel == "search" }) else {
            return nil
        }
        if link.templated == true || link.href.contains("{") { return link.href }
        if let type = link.type, type.contains("opensearchdescription") || type.contains("xml"),
            let url = URL(string: withEntryPoint(link.href, entryPoint))
        {
            let fetched = try client.fetch(url, accept: "application/opensearchdescription+xml, */*;q=0.5")
            do {
                return try OpenSearchDescription.parse(fetched.data, url: fetched.url).template
            } catch let failure as CatalogParseError {
                throw ShelfError(.badData, failure.reason, subject: url.absoluteString)
            }
        }
        return link.href + (link.href.contains("?") ? "&" : "?") + "q={searchTerms}"
    }

    /// The address of a search for `query` through `template`.
    public static func address(_ template: String, query: String) throws -> URL {
        let address = SearchTemplate.fill(template, query: query)
        guard let url = URL(string: address) else {
            throw ShelfError(.badData, "the search template gives an unusable address", subject: address)
        }
        return url
    }

    /// `address` with its `entrypoint` query parameter set to `entryPoint` (nil leaves it as it is).
    public static func withEntryPoint(_ address: String, _ entryPoint: String?) -> String {
        guard let entryPoint,
            var components = URLComponents(
                string: address.replacingOccurrences(of: "{", with: "%7B")
                    .replacingOccurrences(of: "}", with: "%7D"))
        else { return address }
        var items = components.queryItems ?? []
        items.removeAll { $0.name.lowercased() == "entrypoint" }
        items.append(URLQueryItem(name: "entrypoint", value: entryPoint))
        components.queryItems = items
        return (components.string ?? address).replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(
            of: "%7D", with: "}")
    }
}
