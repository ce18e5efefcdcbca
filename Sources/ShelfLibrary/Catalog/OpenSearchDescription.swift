import Foundation
import XMLText

/// An OpenSearch description document: the template a catalog's search link leads to.
public struct OpenSearchDescription: Sendable {
    public var shortName: String?
    /// The template for OPDS results (`{searchTerms}` to fill), or the first usable one.
    public var template: String

    static let namespace = "http://a9.com/-/spec/opensearch/1.1/"

    public static func parse(_ data: Data, url: URL) throws -> OpenSearchDescription {
        let root: XMLElement
        do { root = try XMLTree.parse(data) } catch let failure as XMLStream.Failure {
            throw CatalogParseError("the search description is not usable: \(failure.reason)")
        }
        guard root.name == "OpenSearchDescription" else {
            throw CatalogParseError("the search description's root is <\(root.name)>, not <OpenSearchDescription>")
        }
        let urls = root.children("Url").filter { $0.attribute("template") != nil }
        let preferred =
            urls.first { ($0.attribute("type") ?? "").contains("opds-catalog") }
            ?? urls.first { ($0.attribute("type") ?? "").hasPrefix("application/atom+xml") }
            ?? urls.first { ($0.attribute("type") ?? "").hasPrefix("application/opds+json") }
            ?? urls.first { $0.attribute("rel") != "self" && !($0.attribute("type") ?? "").contains("suggestions") }
        guard let template = preferred?.attribute("template"), template.contains("{searchTerms}") else {
            throw CatalogParseError("the search description has no template with {searchTerms}")
        }
        return OpenSearchDescription(
            shortName: root.child("ShortName")?.trimmedText,
            template: SearchTemplate.absolute(template, base: url))
    }
}

/// Filling OpenSearch and OPDS 2 (RFC 6570 level 1) templates.
public enum SearchTemplate {
    /// Makes a relative template absolute without disturbing its braces.
    static func absolute(_ template: String, base: URL) -> String {
        let escaped = template.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
        guard let url = URL(string: escaped, relativeTo: base)?.absoluteString else { return template }
        return url.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}")
    }

    /// Fills `{searchTerms}` (OpenSearch) or `{query}`/`{?query}` (OPDS 2); other optional parameters are dropped.
    public static func fill(_ template: String, query: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#/")
        let encoded = query.addingPercentEncoding(withAllowedCharacters: allowed) ?? query
        var result = template
        for name in ["{searchTerms}", "{query}", "{title}"] {
            result = result.replacingOccurrences(of: name, with: encoded)
        }
        if let range = result.range(of: "{?query}") {
            result.replaceSubrange(range, with: "?query=\(encoded)")
        }
        // Remaining optional parameters such as {startPage?} or {?page,language}.
        while let open = result.firstIndex(of: "{"), let close = result[open...].firstIndex(of: "}") {
            result.removeSubrange(open...close)
        }
        return result
    }
}
