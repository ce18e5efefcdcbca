import PluginKit

/// EPUB 2.x publications. (Placeholder until the EPUB issue lands: declares itself and refuses to open.)
final class EPUB2Plugin: FormatPlugin {
    static let info = PluginInfo(
        id: "org.shelf.epub2",
        name: "EPUB 2",
        version: "0.1.0",
        description: "EPUB 2.x books.",
        mediaTypes: ["application/epub+zip"],
        fileExtensions: ["epub"],
        capabilities: [.format]
    )

    init(host: PluginHost) throws {}

    func probe(_ input: PluginInput) -> Int32 { input.mediaType == "application/epub+zip" ? 25 : 0 }

    func open(_ input: PluginInput) throws -> PublicationHandle {
        throw PluginFailure.unsupported("EPUB 2 books cannot be opened by this version of shelf yet")
    }
}
