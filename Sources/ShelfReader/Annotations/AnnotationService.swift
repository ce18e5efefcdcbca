import ShelfLibrary
import ShelfCore
import Foundation

/// One book's annotation service, as the library's feed links it (`http://www.w3.org/ns/oa#annotationService`):
/// GET lists the patron's annotations, POST stores one, DELETE on an annotation's id removes it. Every request goes
/// through the catalog client, so it is signed in the way the account's other requests are.
public struct AnnotationService {
    public static let rel = "http://www.w3.org/ns/oa#annotationService"
    public static let mediaType = #"application/ld+json; profile="http://www.w3.org/ns/anno.jsonld""#

    public let client: CatalogClient
    public let url: URL

    public init(client: CatalogClient, url: URL) {
        self.client = client
        self.url = url
    }

    /// Every annotation the service lists. A failed request or an answer that is not an annotation collection throws.
    public func list() throws -> [WebAnnotation] {
        let response = try client.send(
            HTTPRequest(.get, url, headers: ["Accept": Self.mediaType + ", application/json;q=0.9"]))
        try CatalogClient.requireSuccess(response)
        do {
            return try AnnotationCollection.parse(response.body).annotations
        } catch let error as ShelfError {
            throw ShelfError(
                error.kind, error.message, subject: url.absoluteString,
                hint: "Nothing stored on this computer was changed.")
        }
    }

    /// Stores `annotation` and returns it with the id the server gave it (nil when the server names none).
    /// Palace takes new annotations at the patron's collection (`…/annotations/`) and lists them per book: when the
    /// book's own link refuses a POST (404, 405), the collection above it is tried.
    @discardableResult
    public func post(_ annotation: WebAnnotation) throws -> WebAnnotation {
        let body = annotation.jsonData()
        var response = try send(.post, url, body: body)
        if response.status == 404 || response.status == 405, let collection = Self.collectionURL(of: url),
            collection != url
        {
            response = try send(.post, collection, body: body)
        }
        try CatalogClient.requireSuccess(response)
        var stored = annotation
        // The echo is one of two ways to learn the id (the Location header the other); without either the caller says so.
        if let object = try? JSONSerialization.jsonObject(with: response.body),
            let echoed = WebAnnotation(jsonObject: object),
            let id = echoed.id
        {
            stored.id = id
        } else if let location = response.headers["Location"],
            let id = URL(string: location, relativeTo: response.url)?.absoluteString
        {
            stored.id = id
        }
        return stored
    }

    /// Removes the annotation `id` (its URL). One already gone (404, 410) counts as removed.
    public func delete(id: String) throws {
        guard let target = URL(string: id, relativeTo: url)?.absoluteURL,
            ["http", "https"].contains(target.scheme?.lowercased() ?? "")
        else {
            throw ShelfError(.badData, "the annotation id is not an address shelf can use", subject: id)
        }
        let response = try client.send(HTTPRequest(.delete, target, headers: ["Accept": Self.mediaType]))
        if response.status == 404 || response.status == 410 { return }
        try CatalogClient.requireSuccess(response)
    }

    private func send(_ method: HTTPMethod, _ target: URL, body: Data) throws -> HTTPResponse {
        try client.send(
            HTTPRequest(method, target, headers: ["Content-Type": Self.mediaType, "Accept": Self.mediaType], body: body)
        )
    }

    /// `…/annotations/` for a per-book link `…/annotations/<type>/<id>/`.
    static func collectionURL(of url: URL) -> URL? {
        let text = url.absoluteString
        guard let range = text.range(of: "/annotations/", options: .backwards) else { return nil }
        return URL(string: String(text[..<range.upperBound]))
    }
}

extension CatalogEntry {
    /// The link to the entry's annotation service, when the library offers one (a borrowed book in Palace feeds).
    public var annotationServiceLink: CatalogLink? { links.first { $0.rel == AnnotationService.rel } }
}
