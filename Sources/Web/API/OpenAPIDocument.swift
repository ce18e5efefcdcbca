import Foundation

/// The API's OpenAPI 3.1 document, kept as one file per area under the web root's `openapi/` folder
/// (`core.json` first, then the others by name) and merged here: each area adds its paths and schemas in a
/// file of its own. Tests check the API's answers against the merged document.
enum OpenAPIDocument {
    static func merged(from folder: URL) throws -> Data {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted { ($0 == "core.json" ? "" : $0) < ($1 == "core.json" ? "" : $1) }
        guard !names.isEmpty else { throw WebError(500, "No OpenAPI files in \(folder.path)") }
        var document: [String: Any] = [:]
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard let part = try? JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
                throw WebError(500, "\(url.path) is not a JSON object")
            }
            document = merge(document, part)
        }
        return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    }

    /// Objects merge member by member; anything else from `b` wins.
    private static func merge(_ a: [String: Any], _ b: [String: Any]) -> [String: Any] {
        var result = a
        for (key, value) in b {
            if let left = result[key] as? [String: Any], let right = value as? [String: Any] {
                result[key] = merge(left, right)
            } else {
                result[key] = value
            }
        }
        return result
    }
}
