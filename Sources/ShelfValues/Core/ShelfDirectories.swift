import Foundation

/// Where shelf keeps its files, following the XDG base directory specification: the three folders, as a value a
/// front end shows (`shelf status`, the manual) or hands on. Resolving them from the environment and creating them
/// is the core's (ShelfCore/Storage/ShelfDirectories.swift).
public struct ShelfDirectories: Sendable, Equatable {
    /// Settings the patron may edit: `$XDG_CONFIG_HOME/shelf`.
    public let config: URL
    /// What must not be lost (the library database): `$XDG_DATA_HOME/shelf`.
    public let data: URL
    /// What can be fetched or computed again: `$XDG_CACHE_HOME/shelf`.
    public let cache: URL

    public static let databaseFileName = "library.sqlite3"

    public init(config: URL, data: URL, cache: URL) {
        self.config = config
        self.data = data
        self.cache = cache
    }

    /// The library database file (not created by asking).
    public var databaseFile: URL { data.appendingPathComponent(Self.databaseFileName, isDirectory: false) }
}
