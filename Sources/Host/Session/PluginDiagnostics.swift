import Foundation
internal import ShelfPlugins

// What `shelf plugins` and `shelf sniff` show about the plugins: each diagnostic opens every plugin on the search
// path, even those the registry's cache would defer, so that what it lists is what loads.

extension Shelf {
    /// Every plugin found and every library refused, with the reason (docs/json.md, PluginListing).
    public func pluginListing() -> PluginListing {
        registry.loadAll()
        return PluginListing(registry)
    }

    /// One plugin whole: its descriptor, each capability's vtable and each service's capabilities; nil when no
    /// plugin has the id.
    public func pluginInspection(id: String) -> PluginInspection? {
        registry.loadAll()
        return registry.plugin(id: id).map { PluginInspection($0, runs: registry.runPlace(of: $0)) }
    }

    /// The media type sniffed for the file, every format plugin's probe and the plugin that opens it.
    public func sniff(_ path: String) throws -> SniffReport {
        registry.loadAll()
        return try SniffReport(path: path, router: router)
    }
}
