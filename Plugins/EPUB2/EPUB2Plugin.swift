import EPUBCore
import PluginKit

/// EPUB 2.x publications (NCX, guide). Shares container, package and content code with EPUB 3
/// through EPUBCore; the probe decides which of the two opens a book.
final class EPUB2Plugin: FormatPlugin {
    static let info = PluginInfo(
        id: "org.shelf.epub2",
        name: "EPUB 2",
        version: "0.2.0",
        description: "EPUB 2.x books: metadata, NCX table of contents, guide, text and HTML rendering, positions, search.",
        mediaTypes: ["application/epub+zip"],
        fileExtensions: ["epub"],
        capabilities: [.format, .render, .positions, .search],
        concurrentHandles: true
    )

    let host: PluginHost

    init(host: PluginHost) throws { self.host = host }

    func probe(_ input: PluginInput) -> Int32 { EPUBProbe.confidence(for: input, major: 2) }

    func open(_ input: PluginInput) throws -> PublicationHandle {
        let publication = try EPUBPublication(path: input.path)
        for w in publication.warnings { host.log(.warning, "\(input.path): \(w)") }
        return publication
    }
}
