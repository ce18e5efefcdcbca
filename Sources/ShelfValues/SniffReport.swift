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
        /// Why a plugin that knows the file for its own cannot open it (its shelf.probe/1, ABI 1.1); nil otherwise.
        public let error: String?

        package init(plugin: String, claims: Bool, confidence: Int32, error: String? = nil) {
            self.plugin = plugin
            self.claims = claims
            self.confidence = confidence
            self.error = error
        }
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

    package init(
        file: String, sniffedMediaType: String?, mediaType: String?, fileExtension: String, probes: [Probe],
        opensWith: String?
    ) {
        self.file = file
        self.sniffedMediaType = sniffedMediaType
        self.mediaType = mediaType
        self.fileExtension = fileExtension
        self.probes = probes
        self.opensWith = opensWith
    }
}
