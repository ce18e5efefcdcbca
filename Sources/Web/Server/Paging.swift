import Foundation
import Host

/// Lists in the API come a page at a time: `limit` items (50 unless asked, at most 500) from `cursor`, an opaque
/// string the previous page gave as `next`. A page is `{"items": [...], "total": N, "next"?: CURSOR}`.
public enum Paging {
    public static let defaultLimit = 50
    public static let maxLimit = 500

    /// Which items of `count` the request's page holds, and the cursor of the page after it.
    struct Window {
        let range: Range<Int>
        let total: Int
        let next: String?
    }

    static func window(count: Int, for request: WebRequest) throws -> Window {
        let limit = try request.integer("limit", in: 1...maxLimit) ?? defaultLimit
        let start = min(try offset(request.query["cursor"]), count)
        let end = min(count, start + limit)
        return Window(range: start..<end, total: count, next: end < count ? cursor(end) : nil)
    }

    /// A page of the host's own documents, encoded once as the answer.
    public static func response<T: Encodable>(_ items: [T], for request: WebRequest) throws -> WebResponse {
        let window = try window(count: items.count, for: request)
        let page = Page(items: Array(items[window.range]), total: window.total, next: window.next)
        return .json(Data(ReadiumJSON.encode(page).utf8))
    }

    private struct Page<T: Encodable>: Encodable {
        let items: [T]
        let total: Int
        let next: String?
    }

    /// The cursor for the item at `offset`. It is opaque to clients so that a later version may page otherwise.
    static func cursor(_ offset: Int) -> String {
        Data("o\(offset)".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    static func offset(_ cursor: String?) throws -> Int {
        guard let cursor else { return 0 }
        var text = cursor
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text), let decoded = String(data: data, encoding: .utf8),
            decoded.hasPrefix("o"), let value = Int(decoded.dropFirst()), value >= 0
        else {
            throw WebError(400, RequestProblem.unknownCursor(cursor), kind: "bad-cursor")
        }
        return value
    }
}
