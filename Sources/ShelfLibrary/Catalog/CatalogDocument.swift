import ShelfCore
import ShelfPlugins
import Foundation
import XMLText

/// Turns bytes from a catalog address into a feed, whatever the server called them: XML (OPDS 1) or JSON
/// (OPDS 2) is decided by the content, and anything else is refused with a reason.
public enum CatalogDocument {
    public static func parse(_ data: Data, url: URL, contentType: String? = nil) throws -> CatalogFeed {
        let where_ = url.isFileURL ? url.path : url.absoluteString
        func refuse(_ reason: String) -> ShelfError {
            ShelfError(
                .badData, "this is not a catalog shelf can read: \(reason)", subject: where_,
                hint: "Check the address; an OPDS catalog is an Atom feed or OPDS 2 JSON.")
        }
        switch firstSignificantByte(data) {
        case UInt8(ascii: "<"):
            do {
                return try OPDS1Parser.parse(data, url: url)
            } catch let failure as XMLStream.Failure {
                throw refuse(failure.reason)
            } catch let failure as CatalogParseError {
                throw refuse(failure.reason)
            }
        case UInt8(ascii: "{"):
            guard data.count <= FeedXML.maxDocumentSize else {
                throw refuse("it is \(data.count) bytes, more than shelf reads as one document")
            }
            let object: Any
            do { object = try JSONSerialization.jsonObject(with: data) } catch {
                throw refuse("it is not valid JSON")
            }
            guard let json = object as? [String: Any] else { throw refuse("it is JSON but not an object") }
            if json["authentication"] != nil {
                throw ShelfError(
                    .badData, "this is a library's authentication document, not a catalog", subject: where_,
                    next: NextStep(
                        terminal: "Add the library with `shelf account add \(where_)`.",
                        browser: "Add the library on the Accounts page."))
            }
            if let problem = ProblemDetail(json: json) {
                throw refuse("the server answered with a problem: \(problem.words)")
            }
            do { return try OPDS2Parser.parse(json, url: url) } catch let failure as CatalogParseError {
                throw refuse(failure.reason)
            }
        case nil:
            throw refuse("it is empty")
        default:
            let type = contentType.map { " (\(MediaTypes.base($0)))" } ?? ""
            throw refuse("it is neither XML nor JSON\(type)")
        }
    }

    /// The first byte after a byte-order mark and white space.
    static func firstSignificantByte(_ data: Data) -> UInt8? {
        var slice = data[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        return slice.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    }
}

/// An RFC 7807 problem document (`application/api-problem+json`), as Palace and other servers send on refusal.
public struct ProblemDetail: Codable, Equatable, Sendable {
    public var type: String?
    public var title: String?
    public var status: Int?
    public var detail: String?

    public init?(json: [String: Any]) {
        let title = json["title"] as? String
        let detail = json["detail"] as? String
        guard title != nil || detail != nil, json["type"] != nil || json["status"] != nil else { return nil }
        self.type = json["type"] as? String
        self.title = title
        self.status = (json["status"] as? NSNumber)?.intValue
        self.detail = detail
    }

    public init?(data: Data) {
        // Nil is this initialiser's answer for a body that is not a problem document; the caller words the status.
        guard data.count < 1 << 20, let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return nil
        }
        self.init(json: json)
    }

    /// "Title: detail", or whichever is there.
    public var words: String {
        switch (
            title?.trimmingCharacters(in: .whitespacesAndNewlines),
            detail?.trimmingCharacters(in: .whitespacesAndNewlines)
        ) {
        case let (title?, detail?) where !detail.isEmpty && detail != title: return "\(title): \(detail)"
        case let (title?, _): return title
        case let (nil, detail?): return detail
        default: return "the server refused"
        }
    }

    /// The exit-code kind a problem maps to: permission for auth, unavailable for circulation limits.
    var kind: ShelfError.Kind {
        switch status ?? 0 {
        case 401: return .permission
        case 400..<500: return .unavailable
        default: return .temporary
        }
    }
}
