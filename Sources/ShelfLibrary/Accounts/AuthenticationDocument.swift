import ShelfCore
import Foundation

// Reading a library's authentication document into its value (ShelfValues).
extension AuthenticationDocument {
    /// Parses the document; the error says which required part is missing or malformed.
    public static func parse(_ data: Data, url: URL) throws -> AuthenticationDocument {
        let subject = url.absoluteString
        func bad(_ reason: String) -> ShelfError {
            ShelfError(
                .badData, "the library's authentication document is not usable: \(reason)", subject: subject,
                hint: "The library's server is misconfigured; tell the library, or try again later.")
        }
        guard data.count <= 4 << 20 else { throw bad("it is larger than 4 MB") }
        guard let object = try? JSONSerialization.jsonObject(with: data) else { throw bad("it is not valid JSON") }
        guard let json = object as? [String: Any] else { throw bad("it is not a JSON object") }
        // The pre-standard shape (early Library Simplified): a top-level list of type URIs and one set of labels.
        if json["authentication"] == nil, let types = json["type"] as? [Any] {
            var upgraded = json
            upgraded["authentication"] = types.compactMap { $0 as? String }.map {
                ["type": $0, "labels": json["labels"] ?? [:]] as [String: Any]
            }
            if !(json["links"] is [Any]) { upgraded["links"] = [] as [Any] }
            return try parse(try JSONSerialization.data(withJSONObject: upgraded), url: url)
        }
        guard let list = json["authentication"] as? [Any] else {
            throw bad(
                json["authentication"] == nil ? "it has no \"authentication\" list" : "\"authentication\" is not a list"
            )
        }
        var flows: [Flow] = []
        var skipped: [String] = []
        for item in list {
            guard let flow = item as? [String: Any], let type = flow["type"] as? String else {
                throw bad("an entry of \"authentication\" has no type")
            }
            if let labels = flow["labels"], !(labels is [String: Any]) {
                throw bad("the labels of \(type) are not an object")
            }
            let labels = flow["labels"] as? [String: Any] ?? [:]
            for (key, value) in labels where !(value is String) { throw bad("the \(key) label of \(type) is not text") }
            if let links = flow["links"], !(links is [Any]) { throw bad("the links of \(type) are not a list") }
            let links = OPDS2Parser.linkList(flow["links"], base: url, skipped: &skipped)
            flows.append(
                Flow(
                    type: type, kind: FlowKind(rawValue: type), description: flow["description"] as? String,
                    loginLabel: labels["login"] as? String ?? "Library card",
                    passwordLabel: labels["password"] as? String ?? "PIN",
                    authenticate: links.filter { $0.rel == "authenticate" },
                    refresh: links.first { $0.rel == "refresh" }))
        }
        if let links = json["links"], !(links is [Any]) { throw bad("\"links\" is not a list") }
        for case let link as [String: Any] in json["links"] as? [Any] ?? [] where link["href"] as? String == nil {
            throw bad("a link has no href")
        }
        let links =
            OPDS2Parser.linkList(json["links"], base: url, skipped: &skipped)
            + Self.contactLinks(json["links"])
        let title = json["title"] as? String ?? ""
        let id = json["id"] as? String ?? url.absoluteString
        return AuthenticationDocument(
            id: id, title: title.isEmpty ? (url.host ?? "Library") : title,
            description: json["description"] as? String, flows: flows, links: links)
    }

    /// `mailto:` and `tel:` help links are not followed, only shown.
    private static func contactLinks(_ value: Any?) -> [CatalogLink] {
        (value as? [Any] ?? []).compactMap { item in
            guard let link = item as? [String: Any], let href = link["href"] as? String,
                href.hasPrefix("mailto:") || href.hasPrefix("tel:")
            else { return nil }
            return CatalogLink(href: href, rel: link["rel"] as? String, type: link["type"] as? String)
        }
    }
}
