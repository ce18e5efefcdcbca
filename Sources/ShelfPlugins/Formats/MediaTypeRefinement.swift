import Foundation

/// What plugins declare refines a generic sniffed media type (format.h, "How the host chooses a plugin for a
/// file"): a `.fb2` sniffed as application/xml reaches the plugin that declares `fb2` as that plugin's own type
/// (application/x-fictionbook+xml), and so does an XML file whose root element a declared type names
/// (<FictionBook>: application/x-fictionbook+xml). Content always wins: only a generic answer is refined.
extension PublicationInput {
    /// Answers of the sniffer that say only how the bytes are laid out, not what the book is.
    static let genericMediaTypes: Set<String> = [
        "application/xml", "application/zip", "application/octet-stream", "application/json", "text/plain"
    ]

    /// Whether the media type says nothing a plugin could not refine.
    var hasGenericMediaType: Bool { mediaType.map(Self.genericMediaTypes.contains) ?? true }

    /// The input with its generic media type replaced by the first specific type of the first plugin (in load
    /// order) that declares the file's extension or, for XML, the root element; unchanged otherwise.
    func refined(by registry: PluginRegistry) -> PublicationInput {
        guard hasGenericMediaType, !head.isEmpty else { return self }
        let plugins = registry.formatPlugins
        let byExtension =
            fileExtension.isEmpty ? nil : plugins.first { $0.descriptor.fileExtensions.contains(fileExtension) }
        if let plugin = byExtension, let type = Self.specificType(of: plugin),
            plugin.descriptor.mediaTypes.contains(mediaType ?? "") == false
        {
            return with(mediaType: type)
        }
        if mediaType == "application/xml",
            let root = MediaTypeSniffer.rootElement(String(decoding: head.prefix(4096), as: UTF8.self))
        {
            let named = Self.xmlTypes(naming: root)
            for plugin in plugins {
                if let type = plugin.descriptor.mediaTypes.first(where: named.contains) { return with(mediaType: type) }
            }
        }
        return self
    }

    /// The input as the plugin that opens it sees it: a generic type the plugin does not declare becomes the
    /// plugin's own (found by probing every plugin), so `shelf info` and the plugin's `open` name the format.
    func opened(by plugin: LoadedPlugin) -> PublicationInput {
        guard hasGenericMediaType, !plugin.descriptor.mediaTypes.contains(mediaType ?? ""),
            let type = Self.specificType(of: plugin)
        else { return self }
        return with(mediaType: type)
    }

    /// "application/<root>+xml" and "application/x-<root>+xml", lowercase.
    static func xmlTypes(naming root: String) -> Set<String> {
        let name = root.lowercased()
        return ["application/\(name)+xml", "application/x-\(name)+xml"]
    }

    private static func specificType(of plugin: LoadedPlugin) -> String? {
        plugin.descriptor.mediaTypes.first { !genericMediaTypes.contains($0) }
    }

    private func with(mediaType type: String) -> PublicationInput {
        var copy = self
        copy.mediaType = type
        return copy
    }
}
