import PluginKit

/// Reading-list connector for Google Books. It declares its service now so that the host can list and
/// route it; the connector capability (pull, push) arrives with the reading-list issue.
final class GoogleBooksPlugin: ShelfPlugin {
    static let info = PluginInfo(
        id: "org.shelf.googlebooks",
        name: "Google Books",
        version: "0.1.0",
        description: "Google Books bookshelves through the Books API v1.",
        services: ["google-books"]
    )

    init(host: PluginHost) throws {}
}
