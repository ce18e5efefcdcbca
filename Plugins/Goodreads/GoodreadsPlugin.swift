import PluginKit

/// Reading-list connector for Goodreads. It declares its service now so that the host can list and
/// route it; the connector capability (pull, push) arrives with the reading-list issue.
final class GoodreadsPlugin: ShelfPlugin {
    static let info = PluginInfo(
        id: "org.shelf.goodreads",
        name: "Goodreads",
        version: "0.1.0",
        description: "Goodreads shelves: library export CSV, public shelf RSS, and the legacy API.",
        services: ["goodreads"]
    )

    init(host: PluginHost) throws {}
}
