import ShelfCore
import Foundation

/// Every plugin found on the search path: the ones loaded, and the ones refused with a reason.
/// A broken plugin never stops the others from loading.
/// Unchecked Sendable: the lists are filled while it is made (the facade makes it once under its lock) and only read after.
public final class PluginRegistry: @unchecked Sendable {
    public private(set) var plugins: [LoadedPlugin] = []
    public private(set) var refused: [LoadedPlugin.LoadFailure] = []
    /// Where each plugin runs, and why (`shelf plugins`), by path.
    private var places: [String: PluginRunPlace] = [:]

    /// `environment` (the `Shelf`'s) says which plugins run out of process (`PluginPlacement`; by default, those
    /// shelf does not ship), which of their log lines are shown (SHELF_LOG), and, with `directories`, where their
    /// secrets are kept (the Shelf's credential store).
    public init(searchPath: PluginSearchPath, directories: ShelfDirectories?, environment: [String: String]) {
        let placement = PluginPlacement(environment: environment)
        let logFilter = PluginLogFilter(environment: environment)
        let credentials = directories.map { CredentialStore(directories: $0, environment: environment) }
        var cache = PluginRegistryCache(directories: directories)
        defer { cache.save() }
        for path in searchPath.candidates() {
            do {
                let key = FileIdentity(path: path)
                let shipped = searchPath.isShipped(path)
                var plugin: LoadedPlugin
                if let key, let known = cache.entry(for: path, key: key) {
                    let out = placement.runsOutOfProcess(id: known.descriptor.id, shipped: shipped)
                    plugin = LoadedPlugin(
                        deferred: path, descriptor: known.descriptor, capabilities: known.capabilities,
                        outOfProcess: out ? placement : nil, logFilter: logFilter, credentials: credentials)
                } else {
                    let out = placement.runsOutOfProcess(id: nil, shipped: shipped)
                    plugin = try LoadedPlugin(
                        path: path, outOfProcess: out ? placement : nil, logFilter: logFilter, credentials: credentials)
                    // Placed by where it was found; the setting may name its id, known only now.
                    if placement.runsOutOfProcess(id: plugin.descriptor.id, shipped: shipped) != out {
                        plugin = try plugin.moved(placement)
                    }
                }
                if let first = plugins.first(where: { $0.descriptor.id == plugin.descriptor.id }) {
                    refused.append(
                        .init(path: path, reason: "id \(plugin.descriptor.id) is already provided by \(first.path)"))
                    continue
                }
                if !plugin.descriptor.mediaTypes.isEmpty && !plugin.isFormatPlugin {
                    refused.append(
                        .init(path: path, reason: "declares media types but offers no \(KnownExtension.all[0].id)"))
                    continue
                }
                try plugin.initialise(directories: directories)
                plugins.append(plugin)
                places[path] = placement.runPlace(id: plugin.descriptor.id, shipped: shipped, path: path)
                // Only a plugin that loaded, passed every check and initialised is remembered.
                if plugin.isLoaded, let key = FileIdentity(path: path) { cache.record(path, key: key, plugin: plugin) }
            } catch let failure as LoadedPlugin.LoadFailure {
                refused.append(failure)
            } catch {
                refused.append(.init(path: path, reason: "\(error)"))
            }
        }
    }

    public var formatPlugins: [LoadedPlugin] { plugins.filter(\.isFormatPlugin) }

    /// Opens every plugin now (those known from the cache are otherwise opened on first use), so
    /// that `shelf plugins` shows what really loads. Returns the ones that failed, with the reason.
    public func loadAll() {
        let failed = plugins.filter { $0.raw == UnusablePlugin.descriptor }
        plugins.removeAll { plugin in failed.contains { $0 === plugin } }
        refused += failed.map { .init(path: $0.path, reason: $0.loadFailure ?? "no longer loads") }
    }

    /// Where `plugin` runs and why; a plugin the registry did not load says where it runs, not why.
    public func runPlace(of plugin: LoadedPlugin) -> PluginRunPlace {
        places[plugin.path]
            ?? PluginRunPlace(
                place: plugin.isOutOfProcess ? .confined : .inProcess, because: "loaded outside the registry")
    }

    public func plugin(id: String) -> LoadedPlugin? { plugins.first { $0.descriptor.id == id } }

    /// Plugins claiming a media type, or a file extension when no type is known.
    func claimants(mediaType: String?, fileExtension: String) -> [LoadedPlugin] {
        formatPlugins.filter { plugin in
            if let mediaType, plugin.descriptor.mediaTypes.contains(mediaType) { return true }
            return mediaType == nil && plugin.descriptor.fileExtensions.contains(fileExtension)
        }
    }
}
