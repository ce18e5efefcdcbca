import ShelfCore
import Foundation
import PluginAPI

/// Picks the plugin that opens an input: the plugins claiming its media type are probed and
/// the most confident wins; when none claims it, every format plugin is asked (format.h, "How the host
/// chooses a plugin for a file").
public struct FormatRouter {
    public let registry: PluginRegistry
    /// Where publication memos are kept (`PublicationMemo`); nil keeps none.
    public let memoFolder: URL?

    public init(registry: PluginRegistry, memoFolder: URL? = nil) {
        self.registry = registry
        self.memoFolder = memoFolder
    }

    public struct Choice {
        public let plugin: LoadedPlugin
        public let confidence: Int32
    }

    public func choose(for input: PublicationInput) throws -> Choice {
        let claimants = registry.claimants(mediaType: input.mediaType, fileExtension: input.fileExtension)
        var refusals: [ProbeRefusal] = []
        if let best = mostConfident(claimants, input, refusals: &refusals) { return best }
        let others = registry.formatPlugins.filter { p in !claimants.contains { $0 === p } }
        if let best = mostConfident(others, input, refusals: &refusals) { return best }
        // A plugin that knows the file for its own said why it cannot open it (shelf.probe/1): that is the answer.
        if let refusal = refusals.first {
            let plugin = refusal.plugin.descriptor
            var error = refusal.error.shelfError(subject: input.path)
            error.message =
                "the plugin \"\(plugin.name)\" (\(plugin.id)) knows this file but cannot open it: \(refusal.error.description)"
            throw error
        }
        let what = input.mediaType ?? "this kind of file"
        // A plugin that was refused may be the very one meant for this file (built for another ABI, say): its author
        // or the patron who installed it learns so here, not only by thinking to run `shelf plugins`.
        let refused = registry.refused.map { ($0.path as NSString).lastPathComponent }
        let also =
            refused.isEmpty
            ? "" : ", and why \(refused.joined(separator: ", ")) \(refused.count == 1 ? "was" : "were") refused"
        throw ShelfError(
            .unavailable, "no installed plugin opens \(what)", subject: input.path,
            next: NextStep(
                terminal: "`shelf plugins` lists the installed plugins and the formats they open\(also).", browser: nil)
        )
    }

    public func probe(_ plugin: LoadedPlugin, _ input: PublicationInput) -> Int32 {
        var refusals: [ProbeRefusal] = []
        return probe(plugin, input, refusals: &refusals)
    }

    /// A plugin's probe that failed with a reason (shelf.probe/1, ABI 1.1): the file is its own,
    /// and it says why it cannot open it.
    public struct ProbeRefusal {
        public let plugin: LoadedPlugin
        public let error: PluginCallError
    }

    /// The plugin's confidence; a probe that failed with a reason counts as 0 and is added to `refusals`.
    public func probe(_ plugin: LoadedPlugin, _ input: PublicationInput, refusals: inout [ProbeRefusal]) -> Int32 {
        var confidence: Int32 = 0
        if let explained = plugin.probeWithError {
            var error = PluginCall.newError()
            let status = plugin.call { input.withCInput { explained($0, &confidence, &error) } }
            guard status == SHELF_OK else {
                let message = PluginCall.message(of: &error)
                // Without its words, or with a status that is no refusal of the file (a crash, no memory), a failed
                // probe is only "not mine", as a 1.0 probe's failure is.
                if !message.isEmpty,
                    [SHELF_E_UNSUPPORTED, SHELF_E_PROTECTED, SHELF_E_BAD_DATA, SHELF_E_LIMIT].contains(status)
                {
                    refusals.append(
                        ProbeRefusal(
                            plugin: plugin,
                            error: PluginCallError(
                                status: status, message: message, location: PluginCall.text(&error.location),
                                pluginID: plugin.descriptor.id)))
                }
                return 0
            }
            return min(max(confidence, 0), 100)
        }
        guard let format = plugin.format, let probe = format.pointee.probe else { return 0 }
        let status = plugin.call { input.withCInput { probe($0, &confidence) } }
        return status == SHELF_OK ? min(max(confidence, 0), 100) : 0
    }

    private func mostConfident(_ plugins: [LoadedPlugin], _ input: PublicationInput, refusals: inout [ProbeRefusal])
        -> Choice?
    {
        var best: Choice?
        for plugin in plugins {
            let confidence = probe(plugin, input, refusals: &refusals)
            if confidence > 0, confidence > (best?.confidence ?? 0) {
                best = Choice(plugin: plugin, confidence: confidence)
                if confidence >= 100 { break }
            }
        }
        return best
    }

    /// Sniffs, routes and opens a file. `preferring` names the plugin that opened this file before
    /// (the bookshelf remembers it): when it is still installed and still claims the file, it opens
    /// it without the others being loaded and asked.
    public func open(path: String, preferring pluginID: String? = nil) throws -> Publication {
        // A generic sniffed type is refined by what the plugins declare (MediaTypeRefinement).
        let input = try PublicationInput(path: path).refined(by: registry)
        // The plugin that opened this very file before opens it again, unasked (`PublicationMemo`).
        if let memoFolder,
            let found = PublicationMemo.load(bookPath: input.path, folder: memoFolder, registry: registry),
            pluginID == nil || pluginID == found.memo.pluginID,
            // The memo only saves time: a plugin that no longer opens the file this way goes through the router below,
            // whose errors are the ones said.
            let publication = try? Publication(
                plugin: found.plugin, input: input.opened(by: found.plugin), memoFolder: memoFolder, memo: found.memo)
        {
            return publication
        }
        let plugin: LoadedPlugin
        if let pluginID, let known = registry.plugin(id: pluginID), known.isFormatPlugin,
            input.mediaType.map(known.descriptor.mediaTypes.contains) ?? false, probe(known, input) > 0
        {
            plugin = known
        } else {
            plugin = try choose(for: input).plugin
        }
        let publication = try Publication(plugin: plugin, input: input.opened(by: plugin), memoFolder: memoFolder)
        if let memoFolder {
            PublicationMemo.save(
                manifestJSON: publication.manifestJSON, positions: nil, bookPath: input.path, plugin: plugin,
                folder: memoFolder)
        }
        return publication
    }
}
