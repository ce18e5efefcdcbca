import Foundation
import Host

/// The API's OpenAPI 3.1 document, kept as one file per area under the web root's `openapi/` folder
/// (`core.json` first, then the others by name) and merged here: each area adds its paths and schemas in a
/// file of its own. Tests check the API's answers against the merged document.
enum OpenAPIDocument {
    static func merged(from folder: URL) throws -> Data {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted { ($0 == "core.json" ? "" : $0) < ($1 == "core.json" ? "" : $1) }
        guard !names.isEmpty else { throw WebError(500, ServerProblem.openAPIMissing(folder: folder.path)) }
        var document: [String: JSONValue] = [:]
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url), let part = (try? JSONReader.parse(data))?.object else {
                throw WebError(500, ServerProblem.openAPINotJSON(path: url.path))
            }
            document = merge(document, part)
        }
        return Data(ReadiumJSON.encode(JSONValue.object(document), pretty: true).utf8)
    }

    /// Objects merge member by member; anything else from `b` wins.
    private static func merge(_ a: [String: JSONValue], _ b: [String: JSONValue]) -> [String: JSONValue] {
        var result = a
        for (key, value) in b {
            if let left = result[key]?.object, let right = value.object {
                result[key] = .object(merge(left, right))
            } else {
                result[key] = value
            }
        }
        return result
    }
}
