import Foundation
import PluginKit

/// Reading-list connector for Goodreads. Goodreads closed its API to new developers in 2020, so the
/// durable path is the library export CSV; a public shelf's RSS feed is read by user id; the legacy
/// XML API (OAuth 1.0a) serves patrons who still hold a key. With no write API, a push appends to a
/// CSV in Goodreads' import format and says where it is.
final class GoodreadsPlugin: ReadingListPlugin {
    static let info = PluginInfo(
        id: "org.shelf.goodreads",
        name: "Goodreads",
        version: "0.2.0",
        description: "Goodreads shelves: library export CSV, public shelf RSS, and the legacy API.",
        services: ["goodreads"],
        capabilities: [.readingList],
        concurrentHandles: true
    )

    let host: PluginHost

    init(host: PluginHost) throws { self.host = host }

    func describe(service: String) throws -> ConnectorDescription {
        ConnectorDescription(
            service: "goodreads", name: "Goodreads", pull: true, pushRead: true, pushToRead: true,
            pushWrites: .file, authorization: .oauth1,
            settings: [
                ConnectorSetting(
                    key: "file", label: "Goodreads library export (goodreads_library_export.csv)", type: .file),
                ConnectorSetting(key: "userId", label: "Goodreads user id (for the shelf RSS feed or the API)"),
                ConnectorSetting(key: "rssKey", label: "RSS key of a private profile's feed", secret: true),
                ConnectorSetting(key: "apiKey", label: "legacy Goodreads API key", secret: true),
                ConnectorSetting(key: "apiSecret", label: "legacy Goodreads API secret", secret: true),
                ConnectorSetting(key: "exportFile", label: "where pushes write the import CSV"),
                ConnectorSetting(
                    key: "baseURL", label: "service address (default https://www.goodreads.com)", type: .url)
            ],
            uploadURL: "https://www.goodreads.com/review/import")
    }

    func connect(service: String, settings: [String: String]) throws -> ReadingListConnection {
        if let base = settings["baseURL"] {
            guard let url = URL(string: base), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                throw PluginFailure.invalidArgument("the setting baseURL is not an http(s) address")
            }
        }
        if let file = settings["file"], !FileManager.default.isReadableFile(atPath: file) {
            throw PluginFailure.invalidArgument("the setting file names no readable file: \(file)")
        }
        if let id = settings["userId"],
            id.isEmpty || !id.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter || $0 == "-") })
        {
            throw PluginFailure.invalidArgument(
                "the setting userId must be a Goodreads user id such as 12345 or 12345-name")
        }
        return GoodreadsConnection(host: host, settings: settings)
    }
}
