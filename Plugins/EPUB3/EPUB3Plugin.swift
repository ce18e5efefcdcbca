import EPUBCore
import PluginKit

/// EPUB 3.x publications (nav, refines, landmarks, page list, media overlays, rendition). Shares code with EPUB 2
/// through EPUBCore; the probe decides which of the two opens a book.
final class EPUB3Plugin: EPUBFormatPlugin {
    static let info = PluginInfo(
        id: "org.shelf.epub3",
        name: "EPUB 3",
        version: "0.2.0",
        description:
            "EPUB 3.x books: metadata with refinements, nav, landmarks, page list, media overlays, fixed layout, text and HTML rendering, positions, search.",
        mediaTypes: ["application/epub+zip"],
        fileExtensions: ["epub"],
        capabilities: [.format, .render, .positions, .search],
        concurrentHandles: true
    )

    static let major = 3
    let host: PluginHost

    init(host: PluginHost) throws { self.host = host }
}
