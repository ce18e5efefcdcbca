import PluginKit

/// What the EPUB 2 and EPUB 3 plugins share: they differ in their descriptor and in the major version their
/// probe looks for. Opening logs each of the book's warnings (a part skipped, a fallback taken) with its path.
public protocol EPUBFormatPlugin: FormatPlugin {
    /// 2 or 3: the package version this plugin claims (`EPUBProbe.confidence`).
    static var major: Int { get }
    var host: PluginHost { get }
}

extension EPUBFormatPlugin {
    public func probe(_ input: PluginInput) -> Int32 { EPUBProbe.confidence(for: input, major: Self.major) }

    public func open(_ input: PluginInput) throws -> PublicationHandle {
        let publication = try EPUBPublication(path: input.path)
        for w in publication.warnings { host.log(.warning, "\(input.path): \(w)") }
        publication.logWarning = { [host] w in host.log(.warning, "\(input.path): \(w)") }
        return publication
    }
}
