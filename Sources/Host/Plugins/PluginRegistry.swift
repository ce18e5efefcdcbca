import Foundation

/// Every plugin found on the search path: the ones loaded, and the ones refused with a reason.
/// A broken plugin never stops the others from loading.
public final class PluginRegistry: @unchecked Sendable {
    public private(set) var plugins: [LoadedPlugin] = []
    public private(set) var refused: [LoadedPlugin.LoadFailure] = []

    public init(searchPath: PluginSearchPath, directories: ShelfDirectories?) {
        for path in searchPath.candidates() {
            do {
                let plugin = try LoadedPlugin(path: path)
                if let first = plugins.first(where: { $0.descriptor.id == plugin.descriptor.id }) {
                    refused.append(.init(path: path, reason: "refused: id \(plugin.descriptor.id) is already provided by \(first.path)"))
                    continue
                }
                if !plugin.descriptor.mediaTypes.isEmpty && !plugin.isFormatPlugin {
                    refused.append(.init(path: path, reason: "refused: declares media types but offers no \(KnownExtension.all[0].id)"))
                    continue
                }
                try plugin.initialise(directories: directories)
                plugins.append(plugin)
            } catch let failure as LoadedPlugin.LoadFailure {
                refused.append(failure)
            } catch {
                refused.append(.init(path: path, reason: "\(error)"))
            }
        }
    }

    public var formatPlugins: [LoadedPlugin] { plugins.filter(\.isFormatPlugin) }

    public func plugin(id: String) -> LoadedPlugin? { plugins.first { $0.descriptor.id == id } }

    /// Plugins claiming a media type, or a file extension when no type is known.
    func claimants(mediaType: String?, fileExtension: String) -> [LoadedPlugin] {
        formatPlugins.filter { plugin in
            if let mediaType, plugin.descriptor.mediaTypes.contains(mediaType) { return true }
            return mediaType == nil && plugin.descriptor.fileExtensions.contains(fileExtension)
        }
    }
}
