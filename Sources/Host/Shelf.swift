import Foundation

/// The host as one object: where shelf keeps its files, the plugins it found, and the router.
/// The command line and (later) a browser UI both start here.
public final class Shelf {
    public let environment: [String: String]
    public let directories: ShelfDirectories?
    public let searchPath: PluginSearchPath

    public init(pluginPaths: [String] = [], environment: [String: String] = ProcessEnvironment.current()) {
        self.environment = environment
        self.directories = try? ShelfDirectories(environment: environment)
        self.searchPath = .standard(explicit: pluginPaths, environment: environment)
    }

    public private(set) lazy var registry = PluginRegistry(searchPath: searchPath, directories: directories)

    public var router: FormatRouter {
        FormatRouter(registry: registry, memoFolder: directories?.cache.appendingPathComponent("publications", isDirectory: true))
    }

    /// Sniffs, routes and opens a local file (see `FormatRouter.open` for `preferring`).
    public func open(_ path: String, preferring pluginID: String? = nil) throws -> Publication {
        try router.open(path: path, preferring: pluginID)
    }
}
