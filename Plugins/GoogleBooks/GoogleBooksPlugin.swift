import Foundation
import PluginKit

/// Reading-list connector for Google Books (Books API v1): the patron's bookshelves through OAuth 2.0
/// for installed apps (loopback redirect, PKCE S256), public shelves with an API key. shelf ships no
/// keys: the patron brings an API key or an OAuth client id.
final class GoogleBooksPlugin: ReadingListPlugin {
    static let info = PluginInfo(
        id: "org.shelf.googlebooks",
        name: "Google Books",
        version: "0.2.0",
        description: "Google Books bookshelves through the Books API v1.",
        services: ["google-books"],
        capabilities: [.readingList],
        concurrentHandles: true
    )

    let host: PluginHost

    init(host: PluginHost) throws { self.host = host }

    func describe(service: String) throws -> ConnectorDescription {
        ConnectorDescription(
            service: "google-books", name: "Google Books", pull: true, pushRead: true, pushToRead: true,
            pushWrites: .service, authorization: .oauth2,
            settings: [
                ConnectorSetting(
                    key: "clientId", label: "OAuth client id of your own Google Cloud project (Desktop app)"),
                ConnectorSetting(key: "clientSecret", label: "OAuth client secret of that client", secret: true),
                ConnectorSetting(key: "userId", label: "Google Books user id, for public shelves with an API key"),
                ConnectorSetting(key: "apiKey", label: "Google API key, for public shelves", secret: true),
                ConnectorSetting(
                    key: "baseURL", label: "API address (default https://www.googleapis.com/books/v1)", type: .url),
                ConnectorSetting(key: "authURL", label: "authorisation address (default Google's)", type: .url),
                ConnectorSetting(key: "tokenURL", label: "token address (default Google's)", type: .url)
            ])
    }

    func connect(service: String, settings: [String: String]) throws -> ReadingListConnection {
        for key in ["baseURL", "authURL", "tokenURL"] {
            if let value = settings[key] {
                guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                    url.host != nil
                else {
                    throw PluginFailure.invalidArgument("the setting \(key) is not an http(s) address")
                }
            }
        }
        if let id = settings["userId"], id.isEmpty || !id.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) {
            throw PluginFailure.invalidArgument("the setting userId must be a Google Books user id (digits)")
        }
        return GoogleBooksConnection(host: host, settings: settings)
    }
}
