import EPUBCore
import PluginKit

/// EPUB 2.x publications (NCX, guide). Shares container, package and content code with EPUB 3
/// through EPUBCore; the probe decides which of the two opens a book.
final class EPUB2Plugin: EPUBFormatPlugin {
    static let info = PluginInfo(
        id: "org.shelf.epub2",
        name: "EPUB 2",
        version: "0.2.0",
        description:
            "EPUB 2.x books: metadata, NCX table of contents, guide, text and HTML rendering, positions, search.",
        mediaTypes: ["application/epub+zip"],
        fileExtensions: ["epub"],
        capabilities: [.format, .render, .positions, .search],
        concurrentHandles: true
    )

    static let major = 2
    let host: PluginHost

    init(host: PluginHost) throws { self.host = host }
}
