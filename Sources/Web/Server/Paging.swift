import Foundation

/// Lists in the API come a page at a time: `limit` items (50 unless asked, at most 500) from `cursor`, an opaque
/// string the previous page gave as `next`. A page is `{"items": [...], "total": N, "next"?: CURSOR}`.
public enum Paging {
    public static let defaultLimit = 50
    public static let maxLimit = 500

    public static func page(_ items: [Any], for request: WebRequest) throws -> [String: Any] {
        let limit = try request.integer("limit", in: 1...maxLimit) ?? defaultLimit
        let start = try offset(request.query["cursor"])
        let end = min(items.count, start + limit)
        var page: [String: Any] = ["items": start < items.count ? Array(items[start..<end]) : [], "total": items.count]
        if end < items.count { page["next"] = cursor(end) }
        return page
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
              decoded.hasPrefix("o"), let value = Int(decoded.dropFirst()), value >= 0 else {
            throw WebError(400, "The cursor \(cursor) is not one this server gave", hint: "Start again without a cursor.", kind: "bad-cursor")
        }
        return value
    }
}
