import Foundation

/// `shelf sniff FILE` (as GStreamer's typefind): the media type shelf sniffs, every format plugin's probe
/// confidence, and which plugin opens the file: the plugins that claim its media type or extension are
/// asked first, and only when none of them is confident does every other format plugin get asked.
public struct SniffReport: Encodable {
    public struct Probe: Encodable {
        public let plugin: String
        /// It declares the sniffed media type or the file's extension.
        public let claims: Bool
        public let confidence: Int32
    }

    public let file: String
    /// What the content says, before the plugins' declarations refine a generic answer.
    public let sniffedMediaType: String?
    /// The media type the plugins are chosen by.
    public let mediaType: String?
    public let fileExtension: String
    public let probes: [Probe]
    /// The plugin that opens it, or nil when none does.
    public let opensWith: String?

    public init(path: String, router: FormatRouter) throws {
        let sniffed = try PublicationInput(path: path)
        let input = sniffed.refined(by: router.registry)
        file = path
        sniffedMediaType = sniffed.mediaType
        mediaType = input.mediaType
        fileExtension = input.fileExtension
        let claimants = router.registry.claimants(mediaType: input.mediaType, fileExtension: input.fileExtension)
        var probes: [Probe] = []
        for plugin in router.registry.formatPlugins {
            let claims = claimants.contains { $0 === plugin }
            probes.append(Probe(plugin: plugin.descriptor.id, claims: claims, confidence: router.probe(plugin, input)))
        }
        self.probes = probes.sorted { ($0.claims ? 1 : 0, $0.confidence) > ($1.claims ? 1 : 0, $1.confidence) }
        // The report lists every probe above; no plugin choosing the file is shown as none, which is the answer.
        opensWith = try? router.choose(for: input).plugin.descriptor.id
    }
}
